'''``microbench audit`` on its corpus: precision and recall per pitfall and
overall, false alarms on the clean inputs, and no crash on any input.

    .venv/bin/python bench/audit.py [--memory 24g] [--show]
    .venv/bin/python bench/audit.py --corpus corpus2 --split held-out
    .venv/bin/python bench/audit.py --corpus corpus3 --split held-out

The corpus (``tests/data/audit/corpus.yaml``; ``--corpus corpus2``: the
second, gathered apart from the rules, issue 46; ``--corpus corpus3``
to ``corpus14``: the later ones, each gathered after the rules
of the one before) holds real public invocations, each labelled by hand
per pitfall: ``present``, ``absent`` or ``depends``.  The later corpora
are each split once into a development half and a held-out half
(``--split``): ``--show``, which lists each input's false positives and
negatives, is refused on the held-out half, whose inputs the rules are
never written on: of it only the counts are printed.

A label ``present`` or ``depends`` is a positive; a finding of the audit
(certain or conditional) is a positive.  Where both are positive, the
certainty is compared too (``present`` with ``certain``,
``depends`` with ``depends on ...``).  A clean input is one whose every
label is ``absent``: any finding on it is a false alarm.

What it scored is held to what it claims (:mod:`claims`, exit 2): the
files it audits are every file of the corpus, each labelled.
'''

import argparse
import os
import sys
import traceback

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'reframe_tests'))

import claims                                              # noqa: E402
from microbench.audit import judge                         # noqa: E402
from microbench.audit.findings import CATALOGUE, CERTAIN   # noqa: E402
from microbench.audit.fiojob import size_bytes             # noqa: E402

CORPUS = os.path.join(ROOT, 'tests', 'data', 'audit')


#: The corpora: the first (rules and labels made together), the second
#: to the sixth (each gathered apart from the rules, split once)
CORPORA = ('corpus', 'corpus2', 'corpus3', 'corpus4', 'corpus5', 'corpus6',
           'corpus7', 'corpus8', 'corpus9', 'corpus10', 'corpus11',
           'corpus12', 'corpus13', 'corpus14')
#: The split ones
SPLIT = ('corpus2', 'corpus3', 'corpus4', 'corpus5', 'corpus6', 'corpus7',
         'corpus8', 'corpus9', 'corpus10', 'corpus11', 'corpus12',
         'corpus13', 'corpus14')
#: The halves of a split corpus, and both
SPLITS = ('dev', 'held-out', 'all')


def load(corpus='corpus'):
    with open(os.path.join(CORPUS, f'{corpus}.yaml')) as fp:
        return yaml.safe_load(fp)


def audit(entry, memory, corpus='corpus'):
    path = os.path.join(CORPUS, corpus, entry['file'])
    with open(path, 'rb') as fp:
        data = fp.read()
    context = judge.new_context(path, memory, directory=os.path.dirname(
        path))
    return judge.audit_bytes(path, data, context)


def found_of(report):
    '''{pitfall: certain?} of a report's findings.'''
    out = {}
    for finding in report.findings:
        sure = finding.certainty == CERTAIN
        out[finding.pitfall] = out.get(finding.pitfall, False) or sure
    return out


def score(entries, memory, show=False, corpus='corpus'):
    counts = {p: {'tp': 0, 'fp': 0, 'fn': 0, 'sure_agree': 0}
              for p in CATALOGUE}
    crashes, errors, clean, alarms, details = [], [], 0, [], []
    for entry in entries:
        labels = {p: v['label'] for p, v in (entry.get('labels') or
                                             {}).items()}
        try:
            report = audit(entry, memory, corpus)
        except Exception:                         # a crash is a result
            crashes.append((entry['file'], traceback.format_exc(limit=3)))
            continue
        if report.error:
            errors.append((entry['file'], report.error))
        found = found_of(report)
        is_clean = all(v == 'absent' for v in labels.values())
        clean += is_clean
        if is_clean and found:
            alarms.append((entry['file'], sorted(found)))
        for pitfall in CATALOGUE:
            label = labels.get(pitfall, 'absent')
            positive = label in ('present', 'depends')
            if positive and pitfall in found:
                counts[pitfall]['tp'] += 1
                if found[pitfall] == (label == 'present'):
                    counts[pitfall]['sure_agree'] += 1
            elif pitfall in found:
                counts[pitfall]['fp'] += 1
                details.append(f'FP {pitfall} {entry["file"]}')
            elif positive:
                counts[pitfall]['fn'] += 1
                details.append(f'FN {pitfall} {entry["file"]}')
    return counts, crashes, errors, clean, alarms, details


def ratio(part, whole):
    return f'{part / whole:.3f}' if whole else 'n/a'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--memory', default='24g', help='the memory the '
                        'corpus\'s nodes are judged with (default 24g, the '
                        'development VM\'s)')
    parser.add_argument('--show', action='store_true',
                        help='list every false positive and negative (not '
                             'on the held-out half)')
    parser.add_argument('--corpus', choices=CORPORA, default='corpus')
    parser.add_argument('--split', choices=SPLITS, default='all',
                        help='a split corpus\'s half (default: all)')
    args = parser.parse_args(argv)
    if args.show and args.corpus in SPLIT and args.split != 'dev':
        parser.error('--show lists the inputs the rules missed: only on '
                     'the development half (--split dev)')
    everything = load(args.corpus)
    claims.check('corpus files labelled', sorted(
        os.listdir(os.path.join(CORPUS, args.corpus))),
        sorted(entry['file'] for entry in everything))
    entries = [entry for entry in everything if args.split == 'all'
               or entry.get('split') == args.split]
    counts, crashes, errors, clean, alarms, details = score(
        entries, size_bytes(args.memory), corpus=args.corpus)
    # the held-out inputs stay unseen: of them, counts only
    held_out = args.corpus in SPLIT and args.split != 'dev'
    print(f'{args.corpus} {args.split}: {len(entries)} inputs, {clean} clean '
          f'({100 * clean / len(entries):.0f} %), memory {args.memory}')
    print(f'{"pitfall":8} {"labelled":>8} {"found":>6} {"tp":>4} {"fp":>4} '
          f'{"fn":>4} {"precision":>9} {"recall":>7} {"certainty":>9}')
    total = {'tp': 0, 'fp': 0, 'fn': 0, 'sure_agree': 0}
    for pitfall, c in counts.items():
        labelled = c['tp'] + c['fn']
        if not labelled and not c['fp']:
            continue
        for key in total:
            total[key] += c[key]
        print(f'{pitfall:8} {labelled:>8} {c["tp"] + c["fp"]:>6} '
              f'{c["tp"]:>4} {c["fp"]:>4} {c["fn"]:>4} '
              f'{ratio(c["tp"], c["tp"] + c["fp"]):>9} '
              f'{ratio(c["tp"], labelled):>7} '
              f'{ratio(c["sure_agree"], c["tp"]):>9}')
    t = total
    print(f'{"overall":8} {t["tp"] + t["fn"]:>8} {t["tp"] + t["fp"]:>6} '
          f'{t["tp"]:>4} {t["fp"]:>4} {t["fn"]:>4} '
          f'{ratio(t["tp"], t["tp"] + t["fp"]):>9} '
          f'{ratio(t["tp"], t["tp"] + t["fn"]):>7} '
          f'{ratio(t["sure_agree"], t["tp"]):>9}')
    listed = not held_out
    print(f'false alarms on the {clean} clean inputs: {len(alarms)}'
          + ''.join(f'\n  {name}: {found}' for name, found in alarms
                    if listed))
    print(f'unreadable: {len(errors)} ({ratio(len(errors), len(entries))})'
          + ''.join(f'\n  {name}: {why}' for name, why in errors
                    if listed))
    print(f'crashes: {len(crashes)}' + ''.join(
        f'\n  {name}: {why}' for name, why in crashes if listed))
    if args.show:
        print('\n'.join(details))
    return 1 if crashes else 0


if __name__ == '__main__':
    claims.main(main)
