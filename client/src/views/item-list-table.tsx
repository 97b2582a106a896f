import { Link } from 'react-router';
import type { ItemSummary } from '@shared/api/items';
import { CHART_TYPE_LABELS } from '@shared/domain/chart-types';
import { useHotkeys } from '../keyboard/use-hotkeys';
import { selectableRow, useListNavigation, useSelectedRowRef } from '../keyboard/use-list-navigation';
import { BiasFlags, ItemStatusTag, OriginTag, VerifierMark } from './item-tags';
import { ValidityTags } from './validity-flags';

type ItemListTableProps = {
  items: ItemSummary[];
  onOpen: (item: ItemSummary) => void;
  /** Show which chart each item is about (off where the page is about one chart). */
  showChart?: boolean;
  /** j/k/Enter move through and open rows; off when another list on the page owns the keys. */
  keyboard?: boolean;
  /** Checkboxes for bulk actions (x toggles the keyboard-selected row); none when left out. */
  selection?: ItemSelection;
};

export type ItemSelection = {
  checked: ReadonlySet<number>;
  onChange: (ids: number[], checked: boolean) => void;
};

type ItemTableViewProps = Omit<ItemListTableProps, 'keyboard'> & {
  selected: number | null;
  onSelect: (index: number) => void;
};

/** Items of one page; rows open on click or, where the page lets the list own j/k/Enter, with the keyboard. */
export function ItemListTable({ keyboard = true, ...props }: ItemListTableProps) {
  return keyboard ? <NavigableItemTable {...props} /> : <ItemTableView {...props} selected={null} onSelect={() => undefined} />;
}

function NavigableItemTable(props: Omit<ItemListTableProps, 'keyboard'>) {
  const { items, onOpen, selection } = props;
  const { selected, setSelected } = useListNavigation(items.length, (index) => {
    const item = items[index];
    if (item) onOpen(item);
  });
  useHotkeys({
    x: () => {
      const item = selected === null ? undefined : items[selected];
      if (item && selection) selection.onChange([item.id], !selection.checked.has(item.id));
    },
  });
  return <ItemTableView {...props} selected={selected} onSelect={setSelected} />;
}

/** Every text is rendered as text. */
function SelectAllBox({ items, selection }: { items: ItemSummary[]; selection: ItemSelection }) {
  const checkedCount = items.filter((item) => selection.checked.has(item.id)).length;
  const all = items.length > 0 && checkedCount === items.length;
  return (
    <input
      type="checkbox"
      aria-label="Select every item on this page"
      checked={all}
      ref={(box) => {
        if (box) box.indeterminate = checkedCount > 0 && !all;
      }}
      onChange={() => selection.onChange(items.map((item) => item.id), !all)}
    />
  );
}

function ItemTableView({ items, onOpen, showChart = true, selected, onSelect, selection }: ItemTableViewProps) {
  const selectedRow = useSelectedRowRef(selected);

  return (
    <table className="data-grid item-list" data-testid="item-list">
      <thead>
        <tr>
          {selection && (
            <th scope="col" className="select-cell">
              <SelectAllBox items={items} selection={selection} />
            </th>
          )}
          <th scope="col" className="num">
            #
          </th>
          <th scope="col">Question</th>
          <th scope="col">Answer</th>
          <th scope="col">Type</th>
          {showChart && <th scope="col">Chart</th>}
          <th scope="col">Origin</th>
          <th scope="col" title="Does the verifier's recomputed answer match?">
            Verifier
          </th>
          <th scope="col" title="Is it the benchmark's task: the factual question, an answer the assumption changes, the proposal's operation?">
            Validity
          </th>
          <th scope="col">Bias flags</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, index) => (
          <tr
            key={item.id}
            ref={index === selected ? selectedRow : undefined}
            {...selectableRow(index === selected, () => {
              onSelect(index);
              onOpen(item);
            })}
            data-item-id={item.id}
          >
            {selection && (
              <td className="select-cell" onClick={(event) => event.stopPropagation()}>
                <input
                  type="checkbox"
                  aria-label={`Select item #${item.id}`}
                  checked={selection.checked.has(item.id)}
                  onChange={(event) => selection.onChange([item.id], event.target.checked)}
                />
              </td>
            )}
            <td className="num">
              <Link to={`/items/${item.id}`} onClick={(event) => event.stopPropagation()}>
                {item.id}
              </Link>
            </td>
            <td className="question-cell">{item.question}</td>
            <td className="mono">{item.answer}</td>
            <td>{item.answer_type}</td>
            {showChart && (
              <td className="small">
                <Link to={`/charts/${item.chart_id}`} onClick={(event) => event.stopPropagation()} className="mono">
                  {item.imgname}
                </Link>
                <div className="muted">{CHART_TYPE_LABELS[item.chart_type]}</div>
              </td>
            )}
            <td>
              <OriginTag item={item} />
            </td>
            <td className="verdict-cell">
              <VerifierMark match={item.verifier_match} />
            </td>
            <td>
              <ValidityTags item={item} />
            </td>
            <td>
              <BiasFlags flags={item.bias_flags} />
            </td>
            <td>
              <ItemStatusTag status={item.status} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
