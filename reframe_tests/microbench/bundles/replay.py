'''Run a bundled session again: the same checks, with the same variables.

``microbench replay ARCHIVE`` prints the commands that repeat the run of a
bundle (:mod:`microbench.bundles.bundle`): the suite at the bundle's commit,
its Python closure, its Spack environments, and ReFrame's command line exactly
as the session recorded it (every ``-n``, ``-S``, ``--mode``, ``--system``).
With ``--run`` it runs that command line from this suite's checkout; where to
write (``--into DIR``) replaces only the options that say where the original
run wrote (``--prefix``, ``--perflogdir``, ``--report-file``, ``-o``, ``-s``,
the results storage), so a replay never overwrites the run it repeats.  Every
difference it sees between the bundle's machine and this one is a warning: a
figure measured elsewhere compares with caution.
'''

import os
import re
import shlex
import subprocess
import sys
import tempfile

from microbench import paths, provenance
from microbench.bundles import bundle, check
from microbench.verdicts import figures

#: Options of ``reframe`` that say where a run writes, not what it runs
OUTPUT_OPTIONS = {'--prefix': 'stage-output', '-o': 'output',
                  '--output': 'output', '-s': 'stage', '--stage': 'stage',
                  '--perflogdir': 'perflogs', '--report-file': 'report.json'}

#: The facts of a machine that a replay compares
FACTS = ['kernel', 'cpu_model', 'cpus', 'sockets', 'threads_per_core',
         'memory', 'numa', 'mpi', 'libfabric', 'fi_providers']


def rebase(token, root):
    '''``token`` with the bundled suite's root ``root`` replaced by this
    suite's.'''
    if root and root != paths.ROOT and (token == root or token.startswith(
            root + os.sep) or f'={root}{os.sep}' in token):
        return token.replace(root, paths.ROOT, 1)
    return token


#: What a replayed session is tagged: never a night of the history it
#: repeats (``compare --last`` judges ``kind=nightly`` sessions only)
REPLAY = 'replay'


def retagged(tokens):
    '''``tokens`` with every ``--session-extras`` saying ``kind=replay``
    (a recorded ``kind=nightly`` replaced), one added where none was.'''
    out, found, after = [], False, False
    for token in tokens:
        if after:
            token, after = _replay_extras(token), False
        elif token == '--session-extras':
            found = after = True
        elif token.startswith('--session-extras='):
            found = True
            token = '--session-extras=' + _replay_extras(
                token.split('=', 1)[1])
        out.append(token)
    if not found:
        out += ['--session-extras', f'{figures.KIND}={REPLAY}']
    return out


def _replay_extras(value):
    pairs = [item for item in value.split(',') if item and
             item.split('=', 1)[0] != figures.KIND]
    return ','.join([*pairs, f'{figures.KIND}={REPLAY}'])


def reframe_command(meta, into=None):
    '''The arguments of a bundle's recorded ``reframe`` command line for
    this suite's ReFrame, with its output options under ``into`` if
    given; the replayed session is tagged ``kind=replay``
    (:func:`retagged`).'''
    tokens = retagged([rebase(t, meta.get('suite_root'))
                       for t in shlex.split(meta['cmdline'])[1:]])
    if not into:
        return [os.path.join(os.path.dirname(sys.executable), 'reframe'),
                *tokens]

    out, skip = [], False
    for i, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        name = token.split('=', 1)[0]
        if name in OUTPUT_OPTIONS:
            out += [name, os.path.join(into, OUTPUT_OPTIONS[name])]
            skip = '=' not in token
        else:
            out.append(token)
    if '--report-file' not in out:
        out += ['--report-file', os.path.join(into, 'report.json')]
    return [os.path.join(os.path.dirname(sys.executable), 'reframe'), *out]


def differences(files, scratch=True):
    '''Warnings: how the bundle's machine, packages, Python and suite
    differ from this one's.'''
    then = bundle.member_json(files, 'machine.json')
    here = provenance.machine(p['path'] for p in then.get('scratch', [])
                              if scratch)
    out = [f'{name}: {then.get(name)!r} in the bundle, {here.get(name)!r} '
           f'here' for name in FACTS if then.get(name) != here.get(name)]
    here_fs = {p['path']: p for p in here['scratch']}
    for fs in then.get('scratch', []):
        other = here_fs.get(fs['path'], {})
        for key in ('fstype', 'options', 'device_model'):
            if fs.get(key) != other.get(key):
                out.append(f'scratch {fs["path"]}: {key} {fs.get(key)!r} in '
                           f'the bundle, {other.get(key)!r} here')

    if 'machine/apt.tsv' in files:
        before = dict(line.split('\t', 1) for line in files[
            'machine/apt.tsv'].decode().splitlines() if '\t' in line)
        now = provenance.apt_versions(list(before)) if before else {}
        out += [f'package {p}: {v} in the bundle, {now.get(p, "absent")} '
                f'here' for p, v in sorted(before.items()) if now.get(p) != v]

    closure = set(files['python/installed.txt'].decode().split())
    now = set(provenance.python_closure())
    if closure != now:
        out.append(f'Python: {len(closure - now)} of the bundle\'s '
                   f'distributions differ here: '
                   f'{", ".join(sorted(closure - now)[:5])}')

    meta = bundle.member_json(files, 'bundle.json')
    commit = provenance.suite_commit()
    if commit not in meta['suite_commit']:
        out.append(f'suite: commit {", ".join(meta["suite_commit"])} in the '
                   f'bundle, {commit} here')
    return out


def commands(files, archive, into=None):
    '''The shell commands that repeat the bundled run, as lines.'''
    meta = bundle.member_json(files, 'bundle.json')
    lines = [f'# replay of session {meta["session"]} '
             f'({", ".join(meta["systems"])})']
    commit = meta['suite_commit'][0].split('-dirty')[0].split()[0]
    lines.append(f'cd {shlex.quote(paths.ROOT)}')
    lines.append(f'git checkout {commit}' if re.fullmatch(
        r'[0-9a-f]{40}', commit) else f'# the suite\'s commit is not known: '
        f'{meta["suite_commit"][0]}')
    if meta.get('dirty'):
        lines.append('# the run\'s checkout differed from that commit '
                     '(-dirty): this replays the commit, not the changes')
    bundled = os.path.join(tempfile.gettempdir(), f'bundle-{meta["session"]}')
    lines.append(f'mkdir -p {bundled} && tar -xzf '
                 f'{shlex.quote(os.path.abspath(archive))} '
                 f'-C {bundled} --strip-components=1')
    lines.append(f'.venv/bin/pip install --require-hashes -r '
                 f'{bundled}/python/requirements.txt')
    for env in meta['spack_envs']:
        if env != 'system':
            lines.append(f'ci/spack_install.sh {env}')
    lines.append(f'cd {shlex.quote(workdir(meta))}')
    env = ''.join(f'{k}={shlex.quote(v)} ' for k, v in variables(meta, into)
                  .items())
    lines.append(env + shlex.join(reframe_command(meta, into)))
    return lines


def variables(meta, into=None):
    '''The environment variables of the replay: the configuration files
    of the session, the results storage under ``into``.'''
    config = [rebase(f, meta.get('suite_root')) for f in meta['config_files']
              if f != '<builtin>']
    out = {'RFM_CONFIG_FILES': ':'.join(config)} if config else {}
    if into:
        out['RFM_SQLITE_DB_FILE'] = os.path.join(into, 'results.db')
    return out


def workdir(meta):
    '''Where the session ran, if that is here; else this suite's root.'''
    where = rebase(meta.get('workdir') or '', meta.get('suite_root'))
    return where if os.path.isdir(where) else paths.ROOT


def replay(archive, run=False, into=None):
    '''Print the commands of a bundle and the machine's differences; with
    ``run``, run its ReFrame command line; ReFrame's exit code.'''
    files = bundle.read(archive)
    problems = check.check_manifest(files)
    for problem in problems:
        print(f'replay: warning: {problem}', file=sys.stderr)
    for warning in differences(files):
        print(f'replay: warning: {warning}', file=sys.stderr)
    print('\n'.join(commands(files, archive, into)))
    if not run:
        return 0

    meta = bundle.member_json(files, 'bundle.json')
    if into:
        os.makedirs(into, exist_ok=True)
    command = reframe_command(meta, into)
    proc = subprocess.run(command, env={**os.environ,
                                        **variables(meta, into)},
                          cwd=workdir(meta))
    if proc.returncode:
        print(f'replay: reframe exited with {proc.returncode}: '
              f'{shlex.join(command)}', file=sys.stderr)
    return proc.returncode


HELP = 'the commands that run a bundled session again'


def add_arguments(parser):
    parser.add_argument('archive')
    parser.add_argument('--run', action='store_true', help='run its '
                        'reframe command line (exit: reframe\'s)')
    parser.add_argument('--into', help='write the replay here, not where '
                        'the run wrote')
    parser.set_defaults(handler=run)


def run(args):
    return replay(args.archive, args.run, args.into)
