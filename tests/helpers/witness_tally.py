'''The contract every witness reader's property and mutation tests hold,
and the count of the cases they tried.

A reader of a witness output (fincore, compsize, ``/proc/stat``, a memory
record, a cold start's rounds, compare's JSON) must, for any input, either
read it right or reject it with one line saying what is wrong: never
another exception.  :func:`holds` runs a reader on one input and checks
that, counting the outcome under the reader's name; ``WITNESS_TALLY=<path>``
makes :func:`dump` (an autouse fixture of each module) add the counts to
that file as JSON lines, from which the docs' table of cases is made:

    WITNESS_TALLY=/tmp/tally.jsonl .venv/bin/python -m pytest <modules>
    .venv/bin/python tests/helpers/witness_tally.py /tmp/tally.jsonl

Hypothesis runs derandomized (:data:`PROPERTIES`): the same cases on every
run of the same code, so the counts are the same too (Hypothesis also
draws constants from the suite's own modules it finds loaded: a change of
the code, or another set of modules in one run, moves them a little).
'''

import collections
import json
import os
import sys

from hypothesis import settings

#: The most characters a rejection may have: one line, short enough to read
LONGEST = 2000

#: The settings of the property tests of witness readers: derandomized,
#: no database, no deadline (the machine is busy), few examples: a few
#: seconds a module
PROPERTIES = settings(max_examples=60, deadline=None, derandomize=True,
                      database=None)

#: (reader, outcome) -> cases, over the modules run in this process
COUNTS = collections.Counter()


def one_line(message):
    '''Raise unless ``message`` is one line of at most :data:`LONGEST`
    characters.'''
    assert '\n' not in message and '\r' not in message, repr(message)
    assert message.strip(), 'an empty rejection'
    assert len(message) <= LONGEST, f'{len(message)} characters'


def holds(reader, read, data, right, rejected=(ValueError,)):
    '''Run ``read(data)``: a rejection (one of ``rejected``) must be one
    line; an answer must satisfy ``right(answer)`` (which asserts what a
    right reading is).  Any other exception fails the test.  Returns the
    answer, or None where it was rejected; counts the case under
    ``reader``.'''
    try:
        answer = read(data)
    except rejected as err:
        one_line(str(err))
        COUNTS[reader, 'rejected'] += 1
        return None

    right(answer)
    COUNTS[reader, 'read right'] += 1
    return answer


def rejects(reader, read, data, match=None):
    '''``read(data)`` must reject ``data`` in one line (containing
    ``match``, where given); counts the case.'''
    try:
        answer = read(data)
    except ValueError as err:
        one_line(str(err))
        if match is not None:
            assert match in str(err), str(err)
        COUNTS[reader, 'rejected'] += 1
        return str(err)

    raise AssertionError(f'{reader} read {data!r:.200} as {answer!r:.200}')


def dump():
    '''Add :data:`COUNTS` to the file ``$WITNESS_TALLY`` names, if any,
    and forget them.'''
    path = os.environ.get('WITNESS_TALLY')
    if path and COUNTS:
        with open(path, 'a', encoding='utf-8') as out:
            for (reader, outcome), count in sorted(COUNTS.items()):
                out.write(json.dumps({'reader': reader, 'outcome': outcome,
                                      'cases': count}) + '\n')
    COUNTS.clear()


def table(path):
    '''The Markdown rows of a tally file: reader, cases, read right,
    rejected.'''
    counts = collections.defaultdict(collections.Counter)
    with open(path, encoding='utf-8') as fp:
        for line in fp:
            row = json.loads(line)
            counts[row['reader']][row['outcome']] += row['cases']

    rows = ['| reader | cases | read right | rejected in one line |',
            '|---|---|---|---|']
    for reader, found in counts.items():
        rows.append(f'| {reader} | {sum(found.values())} | '
                    f'{found["read right"]} | {found["rejected"]} |')
    total = collections.Counter()
    for found in counts.values():
        total.update(found)
    rows.append(f'| all | {sum(total.values())} | {total["read right"]} | '
                f'{total["rejected"]} |')
    return '\n'.join(rows)


if __name__ == '__main__':
    print(table(sys.argv[1]))
