'''One archive per suite run: what it measured, what ran, and how.

``microbench bundle SESSION -o run.tar.gz`` writes, under one folder:

- ``session/report.json``: ReFrame's JSON report of the session (the file
  its results storage names, else the stored copy), ``session/results.db``:
  the session's entries of the results storage (ReFrame's schema, readable
  by ``microbench compare --db``), ``perflogs/``: the session's perflog
  rows, with their headers;
- ``spack_envs/``: each Spack environment the records name, with its lock,
  every included file, the project's package repository and
  ``checkout-versions.yaml``; on the local default (``system``), the
  versions of the system's packages instead (``machine/apt.tsv``);
- ``python/requirements.txt`` (the suite's, with hashes) and
  ``python/installed.txt`` (what the running Python has);
- ``machine.json``: :func:`microbench.provenance.machine`, with the file
  systems of the run's scratch directories; ``bundle.json``: the session,
  the suite's commit (from the records) and whether its tree was dirty,
  ReFrame's exact command line, its configuration and ``RFM_*`` variables,
  the tools and versions of every figure;
- ``MANIFEST.sha256``: the sha256 of every other file (``sha256sum -c``).

:mod:`microbench.bundles.check` verifies a bundle; :mod:`microbench.bundles.
replay` runs it again.
'''

import datetime
import glob
import hashlib
import io
import json
import os
import re
import shlex
import tarfile
import tempfile
import zlib

import yaml

from microbench import paths, provenance
from microbench.verdicts import figures, storage

FORMAT = 1
MANIFEST = 'MANIFEST.sha256'
REQUIRED = ['bundle.json', 'machine.json', 'session/report.json',
            'session/results.db', 'python/requirements.txt',
            'python/installed.txt']
ENVS_DIR = paths.SPACK_ENVS

#: A version number in a tool's own version report
VERSION = re.compile(r'\d+(?:\.\d+)+')


class BundleError(Exception):
    '''A bundle that cannot be made or read.'''


def one_session(query, db):
    '''The UUID of the one session ``query`` names (``last``: the newest).'''
    uuids = figures.sessions(storage.ALL if query == 'last' else query, db)
    if query == 'last':
        uuids = uuids[-1:]
    if len(uuids) != 1:
        raise BundleError(f'{query!r} selects {len(uuids)} sessions of '
                          f'{storage.database(db)}; a bundle holds one')

    return uuids[0]


def _session_db(path, uuid, target):
    '''The bytes of ``target``: a results storage with only session
    ``uuid`` of ``path`` (ReFrame's own schema, copied).'''
    storage.copy_session(path, uuid, target)
    with open(target, 'rb') as fp:
        return fp.read()


def option(tokens, *names):
    '''The value of the last of ``names`` in a command line, or None.'''
    found = None
    for i, token in enumerate(tokens):
        for name in names:
            if token == name and i + 1 < len(tokens):
                found = tokens[i + 1]
            elif token.startswith(name + '='):
                found = token.split('=', 1)[1]

    return found


def perflog_dir(info):
    '''Where the session wrote its perflogs: its ``--perflogdir``, else
    ``RFM_PERFLOG_DIR``, else the suite's.'''
    where = (option(shlex.split(info.get('cmdline', '')), '--perflogdir')
             or os.environ.get('RFM_PERFLOG_DIR')
             or paths.PERFLOGS)
    return os.path.join(info.get('workdir', ''), where)


def _when(text):
    try:
        return datetime.datetime.fromisoformat(text).timestamp()
    except (TypeError, ValueError):
        return None


def perflogs(info, names):
    '''{path in the bundle: the header and the session's rows} of every
    perflog of the session: rows of its test cases, written between its
    start and end.'''
    base = perflog_dir(info)
    start, end = info['time_start_unix'] - 1, info['time_end_unix'] + 1
    out = {}
    for path in paths.perflog_files(base):
        with open(path, encoding='utf-8', errors='replace') as fp:
            header, *rows = fp.read().splitlines()
        keep = []
        for row in rows:
            when, name, *_ = row.split('|') + ['']
            stamp = _when(when)
            if name in names and stamp is not None and start <= stamp <= end:
                keep.append(row)
        if keep:
            rel = os.path.relpath(path, base)
            out[f'perflogs/{rel}'] = '\n'.join([header, *keep]) + '\n'

    return out


def _repos(config, where):
    '''The package repository folders a Spack configuration names.'''
    repos = config.get('repos') or config.get('repos:') or []
    repos = repos.values() if isinstance(repos, dict) else repos
    return [os.path.join(where, r if isinstance(r, str) else r.get('path', ''))
            for r in repos]


def spack_files(env, envs_dir=ENVS_DIR):
    '''{path in the bundle: text} of Spack environment ``env``: its yaml,
    lock, included files, package repositories, checkout-versions.yaml.'''
    folder = os.path.join(envs_dir, env)
    with open(os.path.join(folder, 'spack.yaml')) as fp:
        spack = yaml.safe_load(fp)['spack']

    included = [os.path.join(folder, p) for p in spack.get('include', [])]
    files = [os.path.join(folder, 'spack.yaml'),
             os.path.join(folder, 'spack.lock'),
             os.path.join(envs_dir, 'checkout-versions.yaml'), *included]
    repos = _repos(spack, folder)
    for path in included:
        with open(path) as fp:
            repos += _repos(yaml.safe_load(fp) or {}, os.path.dirname(path))
    for repo in repos:
        files += [p for p in glob.glob(os.path.join(repo, '**'),
                                       recursive=True)
                  if os.path.isfile(p) and '__pycache__' not in p]

    out = {}
    for path in files:
        rel = os.path.relpath(os.path.normpath(path), envs_dir)
        if rel.startswith('..'):
            raise BundleError(f'{env}: {path} is outside spack_envs/')
        with open(path) as fp:
            out[f'spack_envs/{rel}'] = fp.read()

    return out


def cases_with_figures(report):
    '''The test cases of the last run of a report that have figures.'''
    return [case for case in report['runs'][-1]['testcases']
            if case.get('perfvalues')]


def manifest(files):
    return ''.join(f'{hashlib.sha256(data).hexdigest()}  {name}\n'
                   for name, data in sorted(files.items()))


def make(query, output, db=None):
    '''Write the bundle of the session ``query`` names to ``output``.'''
    path = storage.database(db)
    uuid = one_session(query, path)
    blob, report_file = storage.session(path, uuid)

    session = json.loads(blob)
    info = session['session_info']
    report = blob
    if report_file and os.path.isfile(report_file):
        with open(report_file) as fp:
            text = fp.read()
        if json.loads(text)['session_info'].get('uuid') == uuid:
            report = text

    cases = [c for run in session['runs'] for c in run['testcases']]
    figures = cases_with_figures(session)
    envs = sorted({c.get('spack_env') or 'system' for c in cases})
    files = {'session/report.json': report}
    with tempfile.TemporaryDirectory() as tmp:
        files['session/results.db'] = _session_db(
            path, uuid, os.path.join(tmp, 'results.db'))
    files.update(perflogs(info, {c['display_name'] for c in cases}))
    for env in envs:
        if env != 'system':
            files.update(spack_files(env))
    if 'system' in envs:
        files['machine/apt.tsv'] = ''.join(
            f'{p}\t{v}\n' for p, v in provenance.apt_versions().items())
    with open(paths.REQUIREMENTS) as fp:
        files['python/requirements.txt'] = fp.read()
    files['python/installed.txt'] = '\n'.join(
        provenance.python_closure()) + '\n'
    scratch = {c['scratch'] for c in cases if c.get('scratch')}
    files['machine.json'] = json.dumps(provenance.machine(scratch), indent=1)
    commits = sorted({c.get('suite_commit') for c in cases} - {None, ''})
    files['bundle.json'] = json.dumps({
        'format': FORMAT,
        'made': datetime.datetime.now(datetime.timezone.utc).isoformat(),
        'session': uuid,
        'systems': sorted({f'{c["system"]}:{c["partition"]}'
                           for c in cases}),
        'suite_commit': commits or [f'{provenance.suite_commit()} '
                                    f'(when bundled: the records have none)'],
        'dirty': any(c.endswith('-dirty') or '-dirty ' in c
                     for c in commits),
        'cmdline': info.get('cmdline'),
        'workdir': info.get('workdir'),
        'suite_root': paths.ROOT,
        'config_files': info.get('config_files', []),
        'reframe': info.get('version'),
        'rfm_environment': {k: v for k, v in sorted(os.environ.items())
                            if k.startswith(('RFM_', 'MICROBENCH_'))},
        'spack_envs': envs,
        'tools': sorted({f'{c.get("tool")}: {c.get("tool_version")}'
                         for c in figures}),
    }, indent=1)
    data = {k: v.encode() if isinstance(v, str) else v
            for k, v in files.items()}
    data[MANIFEST] = manifest(data).encode()
    top = os.path.basename(output).split('.tar')[0]
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with tarfile.open(output, 'w:gz') as tar:
        for name, content in sorted(data.items()):
            member = tarfile.TarInfo(f'{top}/{name}')
            member.size, member.mtime, member.mode = (
                len(content), int(info['time_end_unix']), 0o644)
            tar.addfile(member, io.BytesIO(content))

    return uuid, sorted(data)


#: The most a bundle may hold, read into memory: every member together,
#: and how many members (a bundle of a night holds a few dozen files of
#: a few MiB; an archive past these is not one, e.g. a decompression bomb)
MAX_BYTES = 1 << 30
MAX_MEMBERS = 10_000


def read(archive):
    '''{path in the bundle: bytes} of every regular file of ``archive``.

    :raises BundleError: it is not a bundle, or past :data:`MAX_BYTES` or
        :data:`MAX_MEMBERS` (one line).
    '''
    out, total = {}, 0
    try:
        with tarfile.open(archive, 'r:*') as tar:
            for count, member in enumerate(tar, 1):
                if count > MAX_MEMBERS:
                    raise BundleError(f'{archive}: more than {MAX_MEMBERS} '
                                      f'members: not a bundle')
                name = member.name.split('/', 1)[1] if '/' in member.name \
                    else ''
                if member.isdir():
                    continue
                if not member.isfile() or not name or os.path.isabs(
                        member.name) or '..' in member.name.split('/'):
                    raise BundleError(f'{archive}: unexpected member '
                                      f'{member.name!r}')
                total += member.size
                if total > MAX_BYTES:
                    raise BundleError(f'{archive}: its members hold more '
                                      f'than {MAX_BYTES >> 20} MiB: not a '
                                      f'bundle')
                out[name] = tar.extractfile(member).read()
    except (OSError, tarfile.TarError, EOFError, zlib.error) as err:
        # tarfile's own message spans a line per method it tried
        said = str(err).splitlines()[0].rstrip(':') if str(err) else \
            type(err).__name__
        raise BundleError(f'{archive}: not a readable bundle (a .tar.gz '
                          f'that microbench bundle wrote): {said}') \
            from None

    return out


def member_json(files, name):
    '''The JSON of member ``name`` of a bundle's ``files``.'''
    try:
        return json.loads(files[name].decode('utf-8'))
    except (KeyError, UnicodeDecodeError, ValueError) as err:
        raise BundleError(f'{name}: unreadable: {err}') from None


HELP = 'one archive of a run: figures, environments, machine, command line'


def add_arguments(parser):
    parser.add_argument('session', help="a session query selecting one "
                        "session, or 'last'")
    parser.add_argument('-o', '--output', required=True,
                        help='the archive (run-<date>-<system>.tar.gz)')
    parser.set_defaults(handler=run)


def run(args):
    uuid, names = make(args.session, args.output, args.db)
    print(f'{args.output}: session {uuid}, {len(names)} files')
    return 0
