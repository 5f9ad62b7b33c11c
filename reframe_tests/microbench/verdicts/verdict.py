'''A figure's verdict as an object: its figure, its word and its reasons.

The rules make a verdict from statistics (:mod:`.nightly`,
:mod:`.prepost`); the triage then adds to it (an acknowledgement, the
event it joins, a limit it is downstream of, its confirmation rerun).
Each addition is a *reason* of a kind declared in
:data:`microbench.verdicts.vocabulary.REASONS`, and may change the word;
the verdict says itself (``why``: its reasons, the latest first) and
knows its effect on the night's exit code.  The object works on the
figure's row of the compare JSON (:mod:`.compare_json`), whose ``reasons``
member it keeps, so that what is written is what the object says.
'''

from microbench.verdicts import vocabulary


class Verdict:
    '''The verdict of the figure ``row`` (a dict with at least
    ``verdict`` and ``why``): a row without reasons gets its ``why`` as
    its one ``statistics`` reason.'''

    def __init__(self, row):
        self.row = row
        if not isinstance(row.get('reasons'), list):
            row['reasons'] = [{'kind': 'statistics',
                               'text': str(row.get('why', ''))}]

    @property
    def word(self):
        return self.row['verdict']

    @property
    def reasons(self):
        '''``[(kind, text)]``, the latest first.'''
        return [(item['kind'], item['text']) for item in self.row['reasons']]

    def add(self, kind, text, word=None, last=False):
        '''Add the reason ``text`` of ``kind`` (first, or ``last``); the
        verdict becomes ``word`` where one is given.'''
        if kind not in vocabulary.REASONS:
            raise ValueError(f'a reason of kind {kind!r} is not one of '
                             f'{", ".join(vocabulary.REASONS)}')
        if word is not None:
            vocabulary.verdict(word)
            self.row['verdict'] = word
        item = {'kind': kind, 'text': text}
        if last:
            self.row['reasons'].append(item)
        else:
            self.row['reasons'].insert(0, item)
        self.row['why'] = self.why()
        return self

    def why(self):
        '''The reasons as one line, the latest first.'''
        return '; '.join(text for _, text in self.reasons if text)

    def fails(self):
        '''Whether the verdict fails the night (exit code 1).'''
        return bool(vocabulary.verdict(self.word).exit)
