import { jsonReply, type FakeChatRequest, type FakeHandler, type FakeReply } from './fake-openai';

/** The structured-output schema name a request asks for (`proposal_batch`, `hqa_item`), if any. */
export function schemaName(chat: FakeChatRequest): string | null {
  const format = chat.response_format;
  return format?.type === 'json_schema' ? format.json_schema.name : null;
}

/** Row and series labels, as the Stage 2 prompt lists them (a repair request carries it earlier on). */
export function promptLabels(chat: FakeChatRequest): { rows: string[]; series: string[] } {
  const user = chat.messages
    .filter((m) => m.role === 'user')
    // A chart with a stored image is sent as [image_url, text] parts: the prompt is the text part.
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text ?? '').join('\n')))
    .join('\n');
  const rows = /Row labels: (\[.*\])/.exec(user)?.[1];
  const series = /Series names: (\[.*\])/.exec(user)?.[1];
  if (!rows || !series) throw new Error('the Stage 2 prompt did not list the row labels and series names');
  return { rows: JSON.parse(rows) as string[], series: JSON.parse(series) as string[] };
}

/** A correct Stage 2 answer for any table: set the first cell to 1000 and ask for it. */
export function correctItem(chat: FakeChatRequest) {
  const { rows, series } = promptLabels(chat);
  const row = rows[0] ?? '';
  const name = series[0] ?? '';
  const nullOp = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };
  return {
    assumption: `Suppose ${row} were 1000.`,
    question: `Suppose ${row} were 1000. What would the value of ${row} be?`,
    rationale: `${row} is set to 1000.`,
    edit: [{ ...nullOp, op: 'set', row, series: name, value: 1000 }],
    program: `value(${JSON.stringify(row)}, ${JSON.stringify(name)})`,
    answer: '1000',
    answer_type: 'integer',
    affects_answer: true,
  };
}

/**
 * `correctItem` for an item over a chart group (`hqa_group_item`): the first chart's first cell
 * (the prompt lists chart 1's labels first), every op naming that chart, the program reading it.
 */
export function correctGroupItem(chat: FakeChatRequest) {
  const item = correctItem(chat);
  const [op] = item.edit;
  const row = JSON.stringify(op?.row ?? '');
  const name = JSON.stringify(op?.series ?? '');
  return { ...item, edit: item.edit.map((each) => ({ ...each, chart: 1 })), program: `value(1, ${row}, ${name})` };
}

/**
 * A fake model that answers both stages correctly: Stage 1 with the given proposals (numbered
 * per call so they stay distinct), Stage 2 with `correctItem` (`correctGroupItem` over a group). `delayMs` slows every reply.
 */
export function hqaModel(options: { proposals?: (call: number) => string[]; delayMs?: number } = {}): FakeHandler {
  let calls = 0;
  return (chat): FakeReply => {
    const timing = options.delayMs ? { delayMs: options.delayMs } : {};
    if (schemaName(chat) === 'proposal_batch') {
      calls++;
      const proposals = options.proposals?.(calls) ?? [`Rotate the category order so that the ${calls}th smallest value leads the axis`];
      return jsonReply({ proposals }, timing);
    }
    return jsonReply(schemaName(chat) === 'hqa_group_item' ? correctGroupItem(chat) : correctItem(chat), timing);
  };
}
