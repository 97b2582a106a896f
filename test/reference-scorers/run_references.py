"""Scores every vector of vectors.json with every published reference scorer; prints JSON.

  python3 test/reference-scorers/run_references.py [vectors.json] > expected.json

Output: {"unicode", "references", "results": [{"prediction", "target", "raw": {"pix2struct": bool,
...}, "stripped": {...}}]} in the vectors' order: `raw` is each script on the strings as given,
`stripped` on both strings stripped first (Python's str.strip()), which is what our rules do on
purpose. reference-scorers.test.ts compares our rules with `stripped`, shows where that differs
from `raw`, and re-runs this script to check that expected.json is current.
"""

import json
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_scorers import REFERENCES  # noqa: E402


def main() -> None:
  here = os.path.dirname(os.path.abspath(__file__))
  path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'vectors.json')
  with open(path, encoding='utf-8') as handle:
    vectors = json.load(handle)['vectors']
  results = []
  for vector in vectors:
    prediction, target = vector['prediction'], vector['target']
    results.append({
      'prediction': prediction,
      'target': target,
      'raw': {name: bool(call(prediction, target)) for name, call in REFERENCES.items()},
      'stripped': {name: bool(call(prediction.strip(), target.strip())) for name, call in REFERENCES.items()},
    })
  # Only the Unicode version matters to the results (which characters are digits or spaces).
  head = {'unicode': unicodedata.unidata_version, 'references': list(REFERENCES)}
  # One result a line, so a change to a reference shows in a diff as the vectors it changed.
  lines = ',\n'.join('  ' + json.dumps(row, ensure_ascii=True) for row in results)
  sys.stdout.write(json.dumps(head, ensure_ascii=True)[:-1] + ', "results": [\n' + lines + '\n]}\n')


if __name__ == '__main__':
  main()
