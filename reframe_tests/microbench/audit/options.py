'''The option tables of the tools, each read from the tool's own source
(``data/*.tsv``: the first lines say which release and commit).

An option in no table is one the tool itself rejects: the audit says so
(exit 2) rather than guess.  The tables are data, validated on load.
'''

import functools
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')

#: fio types that may be given without a value (parse.c)
FIO_VALUELESS = ('FIO_OPT_STR_SET', 'FIO_OPT_STR')

#: fio's options of the command line only (init.c, ``l_opts``), and
#: whether each takes a value
FIO_COMMAND_LINE = {
    'output': True, 'latency-log': False, 'bandwidth-log': False,
    'minimal': False, 'output-format': True, 'append-terse': False,
    'version': False, 'help': False, 'cmdhelp': None, 'enghelp': None,
    'showcmd': False, 'readonly': False, 'eta': True, 'eta-interval': True,
    'eta-newline': True, 'debug': True, 'parse-only': False,
    'section': True, 'inflate-log': True, 'alloc-size': True,
    'profile': True, 'warnings-fatal': False, 'max-jobs': True,
    'terse-version': True, 'server': None, 'server-internal': None,
    'daemonize': True, 'client': True, 'remote-config': True,
    'cpuclock-test': False, 'crctest': None, 'memcpytest': False,
    'idle-prof': True, 'status-interval': True, 'trigger-file': True,
    'trigger-timeout': True, 'trigger': True, 'trigger-remote': True,
    'aux-path': True, 'merge-blktrace-only': False,
}

#: fio's short options (init.c's ``l_opts``: ``getopt_long_only`` takes
#: ``-o FILE`` for ``--output FILE``, a letter of its option string never
#: a long option's prefix; fio 3.33)
FIO_SHORT = dict(zip(
    'olbmFfvhcisreOEdPxXapwjVSNDCRTGMILWBHJKA',
    ('output', 'latency-log', 'bandwidth-log', 'minimal', 'output-format',
     'append-terse', 'version', 'help', 'cmdhelp', 'enghelp', 'showcmd',
     'readonly', 'eta', 'eta-interval', 'eta-newline', 'debug',
     'parse-only', 'section', 'inflate-log', 'alloc-size', 'profile',
     'warnings-fatal', 'max-jobs', 'terse-version', 'server',
     'server-internal', 'daemonize', 'client', 'remote-config',
     'cpuclock-test', 'crctest', 'memcpytest', 'idle-prof',
     'status-interval', 'trigger-file', 'trigger-timeout', 'trigger',
     'trigger-remote', 'aux-path', 'merge-blktrace-only')))


def _rows(name):
    path = os.path.join(DATA, name)
    rows = []
    with open(path, encoding='utf-8') as fp:
        for number, line in enumerate(fp, start=1):
            if line.startswith('#') or not line.strip():
                continue
            fields = line.rstrip('\n').split('\t')
            if len(fields) < 2 or not fields[0]:
                raise ValueError(f'{path}:{number}: not an option row')
            rows.append(fields)
    if not rows:
        raise ValueError(f'{path}: no option')
    return rows


@functools.lru_cache(maxsize=None)
def fio():
    '''{job option: its fio type} (fio's options.c and engines).'''
    return {row[0]: row[1] for row in _rows('fio-options.tsv')}


@functools.lru_cache(maxsize=None)
def fio_where():
    '''{job option: where fio defines it (``job``, ``engine:NAME``,
    ``profile:NAME``)}.'''
    return {row[0]: row[2] for row in _rows('fio-options.tsv')
            if len(row) > 2}


@functools.lru_cache(maxsize=None)
def fio_canonical():
    '''{job option: the option it is an alias of, or itself}.'''
    return {row[0]: row[3] if len(row) > 3 else row[0]
            for row in _rows('fio-options.tsv')}


@functools.lru_cache(maxsize=None)
def getopt_table(program):
    '''{option: (takes a value, releases)} of ``ior``, ``mdtest`` or
    ``elbencho``.'''
    out = {}
    for row in _rows(f'{program}-options.tsv'):
        if row[1] not in ('flag', 'value'):
            raise ValueError(f'{program}: option {row[0]} is neither a flag '
                             f'nor a value')
        out[row[0]] = (row[1] == 'value',
                       tuple(row[2].split(',')) if len(row) > 2 else ())
    return out
