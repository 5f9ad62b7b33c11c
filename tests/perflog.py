'''Perflogs of the suite as pandas data frames.

ReFrame writes one ``|``-separated file per check and partition under
``perflogs/<system>/<partition>/``, with a header line; each row is one
figure of one run (see ``PERFLOG_FIELDS`` in systems/config.py).
'''

import glob
import os

import pandas as pd


def load(basedir):
    '''All perflog rows under ``basedir``, one data frame.'''
    paths = sorted(glob.glob(os.path.join(basedir, '**', '*.log'),
                             recursive=True))
    frames = [pd.read_csv(p, sep='|', keep_default_na=False) for p in paths]
    if not frames:
        raise FileNotFoundError(f'no perflogs under {basedir}')

    return pd.concat(frames, ignore_index=True)
