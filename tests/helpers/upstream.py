'''The benchmarks' upstream sources, where this machine has them:
``MICROBENCH_UPSTREAM_SOURCES`` names a directory that holds a bare git
clone of each repository as ``OWNER+NAME/repo``.  The tests that hold the
project's recipes and command builders against upstream's own source
(the fio patch, the fabtests commit, IOR 4.0.0's options) read them there;
without it they skip, saying so.  The project keeps no upstream source.'''

import os
import shutil
import subprocess

import pytest

#: The directory of the clones ('' where none is given)
SOURCES = os.environ.get('MICROBENCH_UPSTREAM_SOURCES', '')


def clone(name):
    '''The bare clone of ``name`` (``OWNER+NAME``); skip without one.'''
    if not SOURCES:
        pytest.skip(f'no clone of {name.replace("+", "/")}: '
                    f'MICROBENCH_UPSTREAM_SOURCES is not set')
    path = os.path.join(SOURCES, name, 'repo')
    if not os.path.isdir(path) or shutil.which('git') is None:
        pytest.skip(f'no clone of {name.replace("+", "/")} at {path}')
    return path


def show(name, ref, path):
    '''File ``path`` at ``ref`` of the clone of ``name``.'''
    return subprocess.run(['git', '--git-dir', clone(name), 'show',
                           f'{ref}:{path}'], capture_output=True, text=True,
                          check=True).stdout
