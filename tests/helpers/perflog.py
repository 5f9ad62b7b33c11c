'''Perflogs of the suite as pandas data frames.

ReFrame writes one ``|``-separated file per check and partition under
``perflogs/<system>/<partition>/``, with a header line; each row is one
figure of one run (see ``PERFLOG_FIELDS`` in systems/config.py).
'''

import pandas as pd

from microbench import paths


def load(basedir):
    '''All perflog rows under ``basedir``, one data frame.'''
    frames = [pd.read_csv(path, sep='|', keep_default_na=False)
              for path in paths.perflog_files(basedir)]
    if not frames:
        raise FileNotFoundError(f'no perflogs under {basedir}')

    return pd.concat(frames, ignore_index=True)
