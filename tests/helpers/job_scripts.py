'''Rounds job scripts as the tests read them: the scripts of a dry run's
stage directory and what each sets for the skeleton.'''

import glob
import os
import re
import shlex
import shutil

import pytest

#: shellcheck lints the suite's shell: skipped where it is not installed
needs_shellcheck = pytest.mark.skipif(shutil.which('shellcheck') is None,
                                      reason='shellcheck is not installed '
                                             '(apt-get install shellcheck)')

def scripts(stage, pattern):
    return sorted(glob.glob(os.path.join(stage, '*', pattern, 'rfm_job.sh')))


def read(path):
    with open(path) as fp:
        return fp.read()


def settings(path):
    '''What a rounds job script sets for the skeleton: {name: value} of
    its scalars, lists and associative arrays (by variant).'''
    found = {}
    for line in read(path).splitlines():
        match = re.fullmatch(r'(declare -A )?(\w+)=(.*)', line)
        if not match:
            continue

        name, value = match[2], match[3]
        if not value.startswith('('):
            found[name] = ' '.join(shlex.split(value))
        elif match[1]:
            pairs = (word.split(']=', 1) for word in shlex.split(value[1:-1]))
            found[name] = {key[1:]: item for key, item in pairs}
        else:
            found[name] = shlex.split(value[1:-1])

    return found
