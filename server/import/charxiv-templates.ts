import type { z } from 'zod';
import type { SubplotLocSchema } from '../../shared/domain/benchmark-fields';

/**
 * CharXiv's 19 descriptive question templates, from princeton-nlp/CharXiv `src/constants.py`
 * (DESCRIPTIVE_RESP_INST, Apache-2.0; Wang et al., NeurIPS 2024 D&B) at commit 7ebe88f. The
 * published string is the question after a location prefix, then its instructions; each
 * line is trimmed (the source's Python indentation and trailing spaces dropped), the text is
 * otherwise as published, typos included ("what is difference", "based on the axis at the left").
 * Templates 18 and 19 ask about the whole figure and take no prefix.
 */
export const CHARXIV_DESCRIPTIVE_TEMPLATES: Readonly<Record<number, string>> = {
  1: `{}what is its title?
* Your final answer should be the most relevant title of the plot that is explicitly written.
* If the plot does not have an explicit title or contains only a letter, answer 'Not Applicable'.`,
  2: `{}what is the label of the x-axis?
* Your final answer should be the label of the x-axis that is explicitly written, including the case when x-axis is shared across multiple subplots. When the x-axis is present on both the top and bottom of the plot, answer the label of the x-axis at the bottom.
* If the plot does not have an explicit x-axis label, answer 'Not Applicable'.`,
  3: `{}what is the label of the y-axis?
* Your final answer should be the label of the y-axis that is explicitly written, including the case when y-axis is shared across multiple subplots. When the y-axis is present on both the left and right of the plot, answer the label of the y-axis at the left.
* If the plot does not have an explicit y-axis label, answer 'Not Applicable'.`,
  4: `{}what is the leftmost labeled tick on the x-axis?
* Your final answer should be the tick value on the x-axis that is explicitly written, including the case when x-axis is shared across multiple subplots. When the x-axis is present on both the top and bottom of the plot, answer based on the axis at the bottom. Ignore units or scales that are written separately from the tick, such as units and scales from the axis label or the corner of the plot.`,
  5: `{}what is the rightmost labeled tick on the x-axis?
* Your final answer should be the tick value on the x-axis that is explicitly written, including the case when x-axis is shared across multiple subplots. When the x-axis is present on both the top and bottom of the plot, answer based on the axis at the bottom. Ignore units or scales that are written separately from the tick, such as units and scales from the axis label or the corner of the plot.`,
  6: `{}what is the spatially lowest labeled tick on the y-axis?
* Your final answer should be the tick value on the y-axis that is explicitly written, including the case when y-axis is shared across multiple subplots. When the y-axis is present on both the left and right of the plot, based on the axis at the left. Ignore units or scales that are written separately from the tick, such as units and scales from the axis label or the corner of the plot.`,
  7: `{}what is the spatially highest labeled tick on the y-axis?
* Your final answer should be the tick value on the y-axis that is explicitly written, including the case when y-axis is shared across multiple subplots. When the y-axis is present on both the left and right of the plot, based on the axis at the left. Ignore units or scales that are written separately from the tick, such as units and scales from the axis label or the corner of the plot.`,
  8: `{}what is difference between consecutive numerical tick values on the x-axis?
* Your final answer should be the difference between consecutive numerical tick values of the x-axis, including the case when x-axis is shared across multiple subplots. When the x-axis is present on both the top and bottom of the plot, answer based on the axis at the bottom. Ignore units or scales that are written separately from the tick, such as units and scales from the axis label or the corner of the plot.
* If the plot does not have an explicit x-axis tick value, or if the tick values are not numerical, or if the difference is not constant between all consecutive tick values, answer "Not Applicable".`,
  9: `{}what is difference between consecutive numerical tick values on the y-axis?
* Your final answer should be the difference between consecutive numerical tick values of the y-axis, including the case when y-axis is shared across multiple subplots. When the y-axis is present on both the left and right of the plot, answer based on the axis at the left. Ignore units or scales that are written separately from the tick, such as units and scales from the axis label or the corner of the plot.
* If the plot does not have an explicit y-axis tick value, or if the tick values are not numerical, or if the difference is not constant between all consecutive tick values, answer "Not Applicable".`,
  10: `{}how many lines are there?
* Your final answer should be the number of lines in the plot. Ignore grid lines, tick marks, and any vertical or horizontal auxiliary lines.
* If the plot does not contain any lines or is not considered a line plot, answer "Not Applicable".`,
  11: `{}do any lines intersect?
* Your final answer should be "Yes" if any lines intersect, and "No" otherwise. Ignore grid lines, tick marks, and any vertical or horizontal auxiliary lines.
* If the plot does not contain any lines or is not considered a line plot, answer "Not Applicable".`,
  12: `{}how many discrete labels are there in the legend?
* Your final answer should account for only labels relevant to the plot in the legend, even if the legend is located outside the plot.
* If the plot does not have a legend or no legend is not considered relevant to this plot, answer "Not Applicable".`,
  13: `{}what are the names of the labels in the legend?
* You should write down the labels from top to bottom, then from left to right and separate the labels with commas. Your final answer should account for only labels relevant to the plot in the legend, even if the legend is located outside the plot.
* If the plot does not have a legend or no legend is not considered relevant to this plot, answer "Not Applicable".`,
  14: `{}what is the difference between the maximum and minimum values of the tick labels on the continuous legend (i.e., colorbar)?
* You should remove the percentage sign (if any) in your answer.
* If the plot does not have an explicit colorbar-based continuous legend or the legend is not considered relevant to this subplot, answer "Not Applicable".`,
  15: `{}what is the maximum value of the tick labels on the continuous legend (i.e., colorbar)?
* You should remove the percentage sign (if any) in your answer.
* If the plot does not have an explicit colorbar-based continuous legend or the legend is not considered relevant to this subplot, answer "Not Applicable".`,
  16: `{}what is the general trend of data from left to right?
* Your final answer should be within a few words, such as "increases", "increases then stabilizes".`,
  17: `{}What is the total number of explicitly labeled ticks across all axes?
* Your final answer should be the total number of explicitly labeled ticks across all axes, including the case when any axis is shared across multiple subplots.`,
  18: `What is the layout of the subplots?
* Your final answer should follow "n by m" format, where n is the number of rows and m is the number of columns.
* If the plot does not contain subplots, answer "1 by 1".`,
  19: `What is the number of subplots?
* Your final answer should be the total number of subplots in the plot.
* If the plot does not contain subplots, answer "1".`,
};

/**
 * The question CharXiv asks for template `qid` at `subplot_loc` (its descriptive_query_helper):
 * [0, _] is "For the current plot, ", [r, c] "For the subplot at row r and column c, ", a
 * phrase ("the bottom subplot") "For the bottom subplot, ".
 */
export function charXivDescriptiveQuestion(qid: number, subplotLoc: z.infer<typeof SubplotLocSchema>): string {
  const template = CHARXIV_DESCRIPTIVE_TEMPLATES[qid];
  if (template === undefined) throw new Error(`no CharXiv descriptive template ${qid} (templates are 1–19)`);
  if (qid === 18 || qid === 19) return template;
  const prefix = typeof subplotLoc === 'string' ? `For ${subplotLoc}, ` : subplotLoc[0] === 0 ? 'For the current plot, ' : `For the subplot at row ${subplotLoc[0]} and column ${subplotLoc[1]}, `;
  return template.replace('{}', prefix);
}

/**
 * CharXiv's answer instructions for reasoning questions, by `inst_category` (REASONING_RESP_INST
 * in the same `src/constants.py`, lines trimmed as above, typos kept: "exlicitly"): the question,
 * then its category's instructions, as CharXiv asks it. Category 4 (a number in general) takes
 * the instruction `get_number_instruction` derives from the answer's decimal places.
 */
const CHARXIV_REASONING_INSTRUCTIONS: Readonly<Record<1 | 2 | 3, string>> = {
  1: `* Your final answer must be grounded to some text that is explicitly written and relevant to the question in the chart.
* If you need to answer multiple terms, separate them with commas.
* Unless specified in the question (such as answering with a letter), you are required to answer the full names of subplots and/or labels by default.`,
  2: `* If there are options in the question, your final answer must conform to one of the options.
* If there are additional instructions in the question, follow them accordingly.
* If there are neither options nor additional instructions, you are allowed to respond with a short phrase only.`,
  3: `* Your final answer must be grounded to a number that is exlicitly written and relevant to the question in the chart, even if it's an approximate value.
* You are allowed to extract numbers within some text when needed.`,
};

/** CharXiv's `get_number_instruction`: an integer answer asks for an exact integer, else for its count of decimal places. */
export function charXivNumberInstruction(answer: string): string {
  const [, decimals] = answer.split('.');
  return decimals === undefined ? '* Your final answer must be an exact integer.' : `* Your final answer must be a number with ${decimals.length} decimal places.`;
}

/** A reasoning question as CharXiv asks it: the question, then its category's answer instructions. */
export function charXivReasoningQuestion(query: string, instCategory: 1 | 2 | 3 | 4, answer: string): string {
  const instructions = instCategory === 4 ? charXivNumberInstruction(answer) : CHARXIV_REASONING_INSTRUCTIONS[instCategory];
  return `${query}\n${instructions}`;
}
