'''Is a bundle whole, and does it hold what its figures name?

``microbench check-bundle ARCHIVE`` (:func:`check`): every file matches the
manifest's sha256, none is missing or added, every file a bundle must have
is there; every figure names its tool's version, and that version is one
of a package the bundle holds (the lock of its Spack environment, or the
system's packages), and its Spack spec is in that lock; the session is in
the bundle's results storage and every figure has a perflog row.  With the
pinned Spack on PATH, each environment of the bundle is concretized again
from the bundle's own files and its hashes compared with the lock's.
'''

import hashlib
import os
import tempfile

import yaml

from microbench import provenance, spack
from microbench.verdicts import figures, storage
from microbench.bundles.bundle import (MANIFEST, REQUIRED, VERSION,
                                       cases_with_figures, member_json,
                                       read)


def check_manifest(files):
    '''Problems of ``files`` against their manifest.'''
    if MANIFEST not in files:
        return [f'{MANIFEST} is missing']

    problems, listed = [], {}
    for line in files[MANIFEST].decode('utf-8', 'replace').splitlines():
        digest, _, name = line.partition('  ')
        listed[name] = digest
    for name, digest in listed.items():
        if name not in files:
            problems.append(f'{name}: in the manifest, missing from the '
                            f'bundle')
        elif hashlib.sha256(files[name]).hexdigest() != digest:
            problems.append(f'{name}: its sha256 differs from the '
                            f'manifest\'s (changed since it was bundled)')
    problems += [f'{name}: in the bundle, not in the manifest'
                 for name in sorted(set(files) - set(listed) - {MANIFEST})]
    problems += [f'{name}: missing (every bundle has it)'
                 for name in REQUIRED if name not in files
                 and name not in listed]
    return problems


def _versions(files):
    '''{where: versions} of the packages the bundle holds: each lock's,
    and the system's (apt.tsv).'''
    out = {}
    for name, data in files.items():
        if name.endswith('/spack.lock'):
            out[name] = {(package, version, digest) for digest, (
                package, version) in spack.lock_specs(data).items()}
    if 'machine/apt.tsv' in files:
        out['machine/apt.tsv'] = set()
        for line in files['machine/apt.tsv'].decode().splitlines():
            package, _, version = line.partition('\t')
            upstream = version.split(':')[-1].rsplit('-', 1)[0]
            out['machine/apt.tsv'].add((package, upstream, ''))

    return out


def check_figures(files):
    '''Problems of the figures of a bundle: each names its tool's version,
    and that version is one of a package the bundle holds.'''
    report = member_json(files, 'session/report.json')
    try:
        versions = _versions(files)
    except (ValueError, KeyError, TypeError) as err:
        return [f'a spack.lock of the bundle is unreadable: {err}']

    problems = []
    logged = [data.decode('utf-8', 'replace') for name, data in files.items()
              if name.startswith('perflogs/')]
    for case in cases_with_figures(report):
        name = case['display_name']
        env = case.get('spack_env') or 'system'
        where = ('machine/apt.tsv' if env == 'system'
                 else f'spack_envs/{env}/spack.lock')
        held = versions.get(where)
        if held is None:
            problems.append(f'{name}: {where} is missing')
            continue
        if not case.get('tool_version'):
            problems.append(f'{name}: its figures name no tool version')
            continue
        if not any(f'|{name}|' in rows for rows in logged):
            problems.append(f'{name}: no row in the bundle\'s perflogs')
        numbers = {v for _, v, _ in held}
        for version in VERSION.findall(case['tool_version']):
            # an API level (libfabric api: 1.17) names its release's prefix
            if not any(v == version or v.startswith(version + '.')
                       for v in numbers):
                problems.append(f'{name}: {case["tool"]} '
                                f'{case["tool_version"]!r}: no package of '
                                f'{where} has version {version}')
        for spec in (case.get('spack_spec') or '').split():
            if env == 'system':
                break
            package, _, rest = spec.partition('@')
            version, _, digest = rest.partition('/')
            if not any(n == package and v == version and h.startswith(digest)
                       for n, v, h in held):
                problems.append(f'{name}: {spec} is not in {where}')

    return problems


def pinned_spack(files):
    '''Why the Spack on PATH cannot re-concretize the bundle's
    environments, or None when it is the pinned one.'''
    pinned = yaml.safe_load(files['spack_envs/checkout-versions.yaml'])
    found = provenance.run('spack', '--version')
    if found.split(' ')[0] != str(pinned['spack']['version']):
        return (f'the Spack on PATH ({found}) is not the pinned '
                f'{pinned["spack"]["version"]}')
    return None


def reconcretize(files, envs, timeout=900):
    '''Problems of each environment of ``envs``, concretized again by the
    pinned Spack from the bundle's own files, against its lock.'''
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            # Everything but the locks: an environment is concretized from
            # its spack.yaml alone, then compared with the bundled lock
            if name.startswith('spack_envs/') and not name.endswith(
                    '/spack.lock'):
                os.makedirs(os.path.dirname(os.path.join(tmp, name)),
                            exist_ok=True)
                with open(os.path.join(tmp, name), 'wb') as fp:
                    fp.write(data)
        for env in envs:
            folder = os.path.join(tmp, 'spack_envs', env)
            out = provenance.run('spack', '-e', folder, 'concretize',
                                 '--force', timeout=timeout)
            if out.startswith('unknown'):
                problems.append(f'spack_envs/{env}: spack concretize failed:'
                                f' {out}')
                continue
            with open(os.path.join(folder, 'spack.lock')) as fp:
                again = set(spack.lock_specs(fp.read()))
            locked = set(spack.lock_specs(
                files[f'spack_envs/{env}/spack.lock']))
            if again != locked:
                problems.append(
                    f'spack_envs/{env}: concretized again, '
                    f'{len(again - locked)} hashes differ from the lock\'s '
                    f'({len(locked - again)} of the lock are gone)')

    return problems


def check(archive, spack=True):
    '''(problems, what was checked) of the bundle ``archive``; with
    ``spack``, and the pinned Spack on PATH, its environments are
    concretized again and compared with their locks.'''
    files = read(archive)
    problems = check_manifest(files)
    checked = [f'{len(files) - 1} files against {MANIFEST}']
    if not problems:
        problems += check_figures(files)
        report = member_json(files, 'session/report.json')
        uuid = report.get('session_info', {}).get('uuid')
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, 'results.db')
            with open(db, 'wb') as fp:
                fp.write(files['session/results.db'])
            try:
                stored = figures.sessions(uuid, db)
            except storage.ResultsError as err:
                stored = []
                problems.append(f'session/results.db: {err}')
        if stored != [uuid]:
            problems.append(f'session/results.db does not hold session '
                            f'{uuid} of the report')

        cases = cases_with_figures(report)
        checked.append(f'{len(cases)} test cases with figures and their '
                       f'tool versions')
        envs = sorted({n.split('/', 1)[1].rsplit('/', 1)[0]
                       for n in files if n.startswith('spack_envs/')
                       and n.endswith('/spack.lock')})
        pins = 'spack_envs/checkout-versions.yaml'
        if envs and pins not in files:
            problems.append(f'{pins}: missing (every bundle of a Spack '
                            f'environment has it)')
            spack = False
        why = pinned_spack(files) if envs and spack else 'not asked'
        if envs and not why:
            problems += reconcretize(files, envs)
            checked.append(f'{len(envs)} Spack environment(s) concretized '
                           f'again against their locks')
        elif envs:
            checked.append(f'Spack environments not concretized again: '
                           f'{why}')

    return problems, checked


HELP = 'is a bundle whole? (exit 1 if not)'


def add_arguments(parser):
    parser.add_argument('archive')
    parser.add_argument('--no-spack', action='store_true', help='do not '
                        'concretize its environments again (with the '
                        'pinned Spack on PATH they are)')
    parser.set_defaults(handler=run)


def run(args):
    problems, checked = check(args.archive, not args.no_spack)
    for problem in problems:
        print(f'{args.archive}: {problem}')
    print(f'{args.archive}: {"FAILED" if problems else "OK"}: '
          f'{"; ".join(checked)}')
    return 1 if problems else 0
