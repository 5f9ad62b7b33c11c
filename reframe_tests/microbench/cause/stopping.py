'''The runner's questions of a sequential A/B (:mod:`.sequential` judges
the figures): whether to run another pair of rounds, and what an
experiment that stopped early says of the figures still undecided.'''

import dataclasses

from microbench.verdicts.vocabulary import UNDECIDED


def needs_more(state, watched=()):
    '''Whether the runner should run another pair of rounds: a figure is
    still ``continue`` and the cap is not reached (False where there is no
    figure to judge: more rounds would not make one).  ``watched``:
    ``(check, variant, figure)`` of the figures that decide it (a
    diagnosis watches its event's members); every figure where none of
    them is judged.'''
    if state.pairs_run >= state.rule.cap or not state.judgements:
        return False
    looked = [found for key, found in state.judgements.items()
              if key[:3] in watched]
    return any(found.verdict == 'continue'
               for found in looked or state.judgements.values())


def settle(state):
    '''The judgements of an experiment that stopped before every figure
    was decided (its watched figures were, or a batch failed): a figure
    still ``continue`` is ``inconclusive (stopped early)``, its numbers
    kept.'''
    for key, found in state.judgements.items():
        if found.verdict == 'continue':
            state.judgements[key] = dataclasses.replace(
                found, verdict=UNDECIDED, label='inconclusive (stopped '
                'early)', why=f'{found.why}; the experiment stopped before '
                f'it was decided (the figures it watched were, or a batch '
                f'failed)')
    return state.judgements
