'''A bundle made before the contracts moved (issue 47) still checks and
replays: ``tests/data/bundles/ab6f460-local.tar.gz`` is a real night's
bundle made by ``ci/nightly.sh`` at commit ab6f460 (before the verdict
vocabulary, the field codecs and the pitfall catalogue), read here by
today's ``check-bundle`` and ``replay``, and its command line run again by
``replay --run`` with today's suite (``tests/e2e/test_e2e_bundle.py``).'''

import json
import os
import shlex
import subprocess
import sys

import project
from microbench.bundles import bundle, replay

ARCHIVE = os.path.join(project.ROOT, 'tests', 'data', 'bundles',
                       'ab6f460-local.tar.gz')
COMMIT = 'ab6f4609de7fe1823abff9867a8dabe0f3a1689e'
MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')


def microbench(*args):
    return subprocess.run([MICROBENCH, *args], capture_output=True,
                          text=True, timeout=900)


def test_the_old_bundle_checks():
    proc = microbench('check-bundle', '--no-spack', ARCHIVE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (f'{ARCHIVE}: OK: 10 files against MANIFEST.sha256; 5 test cases '
            'with figures and their tool versions') in proc.stdout


def test_the_old_bundle_prints_its_replay():
    proc = microbench('replay', ARCHIVE)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert f'git checkout {COMMIT}' in lines
    meta = json.loads(bundle.read(ARCHIVE)['bundle.json'])
    command = shlex.split(lines[-1])
    start = command.index(replay.reframe_command(meta)[0])
    assert command[start + 1:] == replay.retagged(
        shlex.split(meta['cmdline'])[1:])
    assert f'replay: warning: suite: commit {COMMIT} in the bundle' \
        in proc.stderr
