"""The published relaxed-correctness scorers, copied verbatim, each with the call its script makes.

Each function below is copied from the file named above it, at the commit named, with only the
name changed (so several can live in one module); the `*_call` functions reproduce how that
file's evaluation loop calls it: which string goes in which argument, and what is done to the
strings first. Nothing else is changed, so `run_references.py` prints what each published
script scores. Licences: pix2struct, VLMEvalKit and ChartBench's copy inside VLMEvalKit are
Apache-2.0; lmms-eval, InternVL and ChartBench are MIT; Qwen-VL is under the Tongyi Qianwen
licence agreement. The copied functions are short, unchanged and attributed here.
"""

from typing import Optional


# google-research/pix2struct, pix2struct/metrics.py, relaxed_correctness
# (commit 945f27e936c9464d9d7c133f1bd1f4f383be9e99). Apache-2.0, Copyright 2024 The pix2struct Authors.
def pix2struct_relaxed_correctness(target: str,
                                   prediction: str,
                                   max_relative_change: float = 0.05) -> bool:
  def _to_float(text: str) -> Optional[float]:
    try:
      if text.endswith("%"):
        # Convert percentages to floats.
        return float(text.rstrip("%")) / 100.0
      else:
        return float(text)
    except ValueError:
      return None

  prediction_float = _to_float(prediction)
  target_float = _to_float(target)
  if prediction_float is not None and target_float:
    relative_change = abs(prediction_float - target_float) / abs(target_float)
    return relative_change <= max_relative_change
  else:
    return prediction.lower() == target.lower()


def pix2struct_call(prediction: str, gold: str) -> bool:
  # aggregate_metrics: metric_fn(normalize_fn(t), p), normalize_fn the identity for relaxed_accuracy.
  return pix2struct_relaxed_correctness(gold, prediction)


# EvolvingLMMs-Lab/lmms-eval, lmms_eval/tasks/chartqa/utils.py, relaxed_correctness
# (commit 1d3f34ab316d4a4ac1d7b2c656e2631a127104f9). MIT, Copyright (c) 2025 LMMs-Lab.
def lmms_eval_relaxed_correctness(prediction, target, max_relative_change: float = 0.05) -> bool:
    def _to_float(text: str):
        try:
            if text.endswith("%"):
                # Convert percentages to floats.
                return float(text.rstrip("%")) / 100.0
            else:
                return float(text)
        except ValueError:
            return None

    prediction_float = _to_float(prediction)
    target_float = _to_float(target)
    if prediction_float is not None and target_float:
        relative_change = abs(prediction_float - target_float) / abs(target_float)
        return relative_change <= max_relative_change
    else:
        return prediction.lower() == target.lower()


def lmms_eval_call(prediction: str, gold: str) -> bool:
  # chartqa_process_results: relaxed_correctness(pred, doc["answer"]), the reply unstripped.
  return lmms_eval_relaxed_correctness(prediction, gold)


# open-compass/VLMEvalKit, vlmeval/dataset/utils/vqa_eval.py, relaxed_correctness
# (commit e8e78f05f3080fe28154f2130321f17951c3be94). Apache-2.0, Copyright 2023 VLMEvalKit Authors.
def vlmevalkit_relaxed_correctness(target: str,
                                   prediction: str,
                                   max_relative_change: float = 0.05) -> bool:
    def _to_float(text: str) -> Optional[float]:
        try:
            if text.endswith('%'):
                # Convert percentages to floats.
                return float(text.rstrip('%')) / 100.0
            else:
                return float(text)
        except ValueError:
            return None
    prediction = str(prediction)
    target = str(target)
    prediction_float = _to_float(prediction)
    target_float = _to_float(target)
    if prediction_float is not None and target_float:
        relative_change = abs(prediction_float - target_float) / abs(target_float)
        return relative_change <= max_relative_change
    else:
        return prediction.lower() == target.lower()


def vlmevalkit_call(prediction: str, gold: str) -> bool:
  # process_line, method 'relaxed_accuracy': ret['pred'] = line['prediction'].strip();
  # relaxed_correctness(x, ret['pred']) for each gold x.
  return vlmevalkit_relaxed_correctness(gold, prediction.strip())


# QwenLM/Qwen-VL, eval_mm/evaluate_vqa.py, relaxed_correctness
# (commit cfe66a7cc5df6ca8bff95c2b8b02bc0a1cbdc72c). Tongyi Qianwen licence agreement.
# OpenGVLab/InternVL, internvl_chat/eval/vqa/evaluate_vqa.py (commit
# 226363ee967fe383af59ff808255e2b433f3070e, MIT, Copyright (c) 2023 OpenGVLab) holds the same
# function and the same evaluate_relaxed_accuracy, character for character.
def qwen_vl_relaxed_correctness(target: str,
                                prediction: str,
                                max_relative_change: float = 0.05) -> bool:
    def _to_float(text: str) -> Optional[float]:
        try:
            if text.endswith('%'):
                # Convert percentages to floats.
                return float(text.rstrip('%')) / 100.0
            else:
                return float(text)
        except ValueError:
            return None

    prediction_float = _to_float(prediction)
    target_float = _to_float(target)
    if prediction_float is not None and target_float:
        relative_change = abs(prediction_float -
                              target_float) / abs(target_float)
        return relative_change <= max_relative_change
    else:
        return prediction.lower() == target.lower()


def qwen_vl_call(prediction: str, gold: str) -> bool:
  # evaluate_relaxed_accuracy: relaxed_correctness(elem['answer'].strip(), ann): the model's
  # answer goes in as `target`, the gold as `prediction`.
  return qwen_vl_relaxed_correctness(prediction.strip(), gold)


# IDEA-FinAI/ChartBench, Stat/stat_all_metric.py, relaxed_correctness
# (commit 548980b09984412b00971968169b7ff148947f09). MIT (README badge). VLMEvalKit's
# vlmeval/dataset/chartbench.py holds the same function and the same call.
def chartbench_relaxed_correctness(target: str,
                                   prediction: str,
                                   max_relative_change: float = 0.05) -> bool:

    def _prediction_to_float(text: str) -> Optional[float]:
        try:
            if text.endswith('%'):
                # Convert percentages to floats.
                # return float(text.rstrip('%')) / 100.0
                return float(text.rstrip('%'))
            else:
                return float(text)
        except ValueError:
            return None

    def _target_to_float(text: str) -> Optional[float]:
        try:
            if text.endswith('%'):
                # Convert percentages to floats.
                # return float(text.rstrip('%')) / 100.0
                return [float(text.rstrip('%')), float(text.rstrip('%')) / 100.0]
            else:
                return [float(text)]
        except ValueError:
            return None

    prediction_float = _prediction_to_float(prediction)
    target_float = _target_to_float(target)
    if prediction_float is not None and target_float is not None:
        flag = False
        # print(target_float)
        for t in target_float:
            if t == 0:
                relative_change = prediction_float
            else:
                relative_change = abs(prediction_float - t) / abs(t)
            flag = flag or relative_change <= max_relative_change
        return flag
    else:
        return prediction.lower() == target.lower()


def chartbench_call(prediction: str, gold: str) -> bool:
  # eval_all_metric_in_chartbench (NQA): relaxed_correctness(eval_answer.strip().strip(
  # '<\uff5cend\u2581of\u2581sentence\uff5c>'), ann): the model's answer as `target`, the
  # gold as `prediction`; str.strip(chars) strips any of those characters, not the token.
  return chartbench_relaxed_correctness(prediction.strip().strip('<\uff5cend\u2581of\u2581sentence\uff5c>'), gold)


# Each published script, by the name the vectors' results use.
REFERENCES = {
  'pix2struct': pix2struct_call,
  'lmms-eval': lmms_eval_call,
  'vlmevalkit': vlmevalkit_call,
  'qwen-vl': qwen_vl_call,
  'chartbench': chartbench_call,
}
