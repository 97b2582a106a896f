import { createHash } from 'node:crypto';
import type { Db } from '../../db/database';
import { statement } from '../../db/statements';

/** All SQL of `judge_grades` (migration 012): the LLM judge's grades, cached for re-scoring. */

/** What a grade is of: the same five always get the same grade back from the cache. */
export interface GradeKey {
  judgeModel: string;
  /** sha256 of the judge template's file text (`PromptTemplate.hash`). */
  promptHash: string;
  question: string;
  groundTruth: string;
  response: string;
}

export interface StoredGrade {
  extracted_answer: string;
  score: number;
}

/** sha256 over the five parts as a JSON array, so no separator inside a response can make two keys collide. */
export function gradeKey(key: GradeKey): string {
  const parts = [key.judgeModel, key.promptHash, key.question, key.groundTruth, key.response];
  return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex');
}

/** The cached grade for `key`, or null. */
export function findGrade(db: Db, key: GradeKey): StoredGrade | null {
  const row = statement(db, 'SELECT extracted_answer, score FROM judge_grades WHERE key = ?').get(gradeKey(key)) as StoredGrade | undefined;
  return row ?? null;
}

/** Stores a grade the judge gave; a grade already stored for the same key is kept (the first answer stands, as a cache hit would have returned it). */
export function saveGrade(db: Db, key: GradeKey, promptName: string, grade: StoredGrade): void {
  statement(
    db,
    `INSERT INTO judge_grades (key, judge_model, prompt_name, prompt_hash, question, ground_truth, response, extracted_answer, score)
     VALUES (@key, @judge_model, @prompt_name, @prompt_hash, @question, @ground_truth, @response, @extracted_answer, @score)
     ON CONFLICT (key) DO NOTHING`,
  ).run({
    key: gradeKey(key),
    judge_model: key.judgeModel,
    prompt_name: promptName,
    prompt_hash: key.promptHash,
    question: key.question,
    ground_truth: key.groundTruth,
    response: key.response,
    extracted_answer: grade.extracted_answer,
    score: grade.score,
  });
}

/** How many grades are cached: what a test or report can count. */
export function countGrades(db: Db, judgeModel?: string): number {
  const row = statement(db, 'SELECT COUNT(*) AS n FROM judge_grades WHERE @model IS NULL OR judge_model = @model').get({ model: judgeModel ?? null }) as { n: number };
  return row.n;
}
