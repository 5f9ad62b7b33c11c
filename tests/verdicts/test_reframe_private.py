'''ReFrame's private API in one module only, microbench/private.py, and
its storage's internals (public names, the schema) in one module only,
microbench/verdicts/storage.py.

A tripwire: each use (:data:`private.PRIVATE`, :data:`storage.INTERNAL`)
is named here and checked against the installed ReFrame; the test fails,
saying which uses to review, when ReFrame's version or its storage's
schema version is not the one they were written against.  No other module
of the library touches ReFrame's private names or its storage's tables.
'''

import ast
import json
import os
import re
import sqlite3

import pytest
import reframe

from microbench import paths, private
from microbench.suite.variant import VariantCheck
from microbench.verdicts import figures, storage

from fixtures import path as data

REVIEW = ('review every use in microbench/private.py (PRIVATE) and '
          'microbench/verdicts/storage.py (INTERNAL) against the new '
          'ReFrame, then update TESTED_REFRAME in the first and '
          'TESTED_SCHEMA in the second')


@pytest.fixture(scope='module')
def stored(tmp_path_factory):
    '''A results storage made by ReFrame, holding two real sessions.'''
    db = str(tmp_path_factory.mktemp('private') / 'results.db')
    for number in (1, 2):
        with open(data(f'results/fio-quick-{number}.json')) as fp:
            storage.store(db, json.load(fp))
    return db


def test_reframe_is_the_version_the_private_uses_were_written_for():
    assert reframe.VERSION == storage.TESTED_REFRAME, (
        f'ReFrame {reframe.VERSION}, not {storage.TESTED_REFRAME}: '
        f'{REVIEW}: ' + '; '.join([*private.PRIVATE, *storage.INTERNAL]))


def test_the_storage_schema_is_the_one_read(stored):
    found = storage.schema_version(stored)
    assert found == storage.TESTED_SCHEMA, (
        f'ReFrame stores schema {found}, not {storage.TESTED_SCHEMA}: '
        f'{REVIEW}')


def test_each_private_name_still_exists():
    from reframe.core import config, runtime
    from reframe.frontend.reporting import storage as rfm_storage
    from reframe.frontend.reporting import utility

    missing = [name for name, there in [
        ('_SqliteStorage._db_file', rfm_storage._SqliteStorage),
        ('_SqliteStorage._db_read', rfm_storage._SqliteStorage),
        ('_SqliteStorage._db_filter_json', rfm_storage._SqliteStorage),
        ('StorageBackend.default', rfm_storage.StorageBackend),
        ('parse_query_spec', utility),
        ('load_config', config),
        ('_SiteConfig.select_subconfig', config._SiteConfig),
        ('_SiteConfig.add_sticky_option', config._SiteConfig),
        ('init_runtime', runtime),
    ] if not hasattr(there, name.split('.')[-1])]
    assert not missing, f'ReFrame has no {missing} any more: {REVIEW}'
    assert len(storage.INTERNAL) == 5, 'an internal use added or ' \
        'removed: name it here and in storage.INTERNAL'
    assert len(private.PRIVATE) == 5, 'a private use added or removed: ' \
        'name it here and in private.PRIVATE'


def test_a_check_still_keeps_its_partition_where_it_is_placed():
    '''What :func:`private.place` sets is what ReFrame's properties read.'''
    check = object.__new__(VariantCheck)
    private.place(check, 'a partition', 'an environment')
    assert check.current_partition == 'a partition'
    assert check.current_environ == 'an environment'


def test_a_relocated_test_reads_its_directories_where_they_are_set():
    '''What :func:`private.relocate` sets is what ReFrame's properties
    read (an A/B side's view of a rounds job).'''
    check = object.__new__(VariantCheck)
    private.relocate(check, '/stage/A', '/output/A')
    assert check.stagedir == '/stage/A'
    assert check.outputdir == '/output/A'


def test_the_tables_read_have_the_columns_read(stored):
    with sqlite3.connect(stored) as conn:
        columns = {table: {row[1] for row in conn.execute(
            f'PRAGMA table_info({table})')}
            for table in ('sessions', 'testcases', 'metadata')}
    wanted = {'sessions': {'uuid', 'session_start_unix', 'json_blob',
                           'report_file'},
              'testcases': {'session_uuid'}, 'metadata': {'schema_version'}}
    for table, names in wanted.items():
        assert names <= columns[table], (
            f'ReFrame\'s {table} table lacks {names - columns[table]}: '
            f'{REVIEW}')


def test_every_private_use_works(stored, tmp_path):
    '''Each use, through the module that makes it: open, check, select by
    time and by a filter on the extras (the real sessions' tags), read,
    copy one session.'''
    every = figures.sessions(storage.ALL, stored)
    assert len(every) == 2
    assert figures.sessions('?tag=="dev2"', stored) == every[1:]
    assert figures.sessions(every[0], stored) == every[:1]
    blob, _ = storage.session(stored, every[0])
    assert json.loads(blob)['session_info']['uuid'] == every[0]
    copy = str(tmp_path / 'one.db')
    storage.copy_session(stored, every[1], copy)
    assert figures.sessions(storage.ALL, copy) == every[1:]
    assert storage.schema_version(copy) == storage.TESTED_SCHEMA


#: What no module but private.py may use: ReFrame's private names
PRIVATE_NAME = re.compile(r'^(_db_\w+|_SqliteStorage|_current_partition|'
                          r'_current_environ|_SiteConfig|_stagedir|'
                          r'_outputdir)$')
#: What no module but storage.py may use: ReFrame's storage internals
#: (public names), and SQL on the storage's tables
INTERNAL_NAME = re.compile(r'^(registered_name|StorageBackend|'
                           r'parse_query_spec|add_sticky_option|'
                           r'init_runtime|load_config)$')
STORAGE_SQL = re.compile(r'\b(FROM|INTO|JOIN)\s+(src\.)?(sessions|'
                         r'testcases|metadata)\b')


def uses(path, pattern, sql=False):
    '''The names of ``pattern`` (and SQL on ReFrame's tables, if
    ``sql``) the module at ``path`` uses.'''
    with open(path) as fp:
        tree = ast.parse(fp.read(), path)
    for node in ast.walk(tree):
        name = (node.attr if isinstance(node, ast.Attribute) else
                node.id if isinstance(node, ast.Name) else None)
        if name and pattern.match(name):
            yield f'{name} (line {node.lineno})'
        if isinstance(node, ast.alias) and pattern.match(
                node.name.split('.')[-1]):
            yield f'import of {node.name} (line {node.lineno})'
        if sql and isinstance(node, ast.Constant) and isinstance(
                node.value, str) and STORAGE_SQL.search(node.value):
            yield f'SQL on ReFrame\'s tables (line {node.lineno})'


def library_modules():
    for folder, _, names in os.walk(paths.LIBRARY):
        for name in sorted(names):
            if name.endswith('.py'):
                yield os.path.join(folder, name)


@pytest.mark.parametrize('path', sorted(library_modules()),
                         ids=lambda p: os.path.relpath(p, paths.LIBRARY))
def test_no_other_module_uses_reframe_privately(path):
    where = os.path.relpath(path, paths.LIBRARY)
    found = list(uses(path, PRIVATE_NAME))
    if where == 'private.py':
        assert found, 'the scan does not see the uses it looks for'
    else:
        assert not found, (f'{path}: {found}: ReFrame\'s private API is '
                           f'used in microbench/private.py only')


@pytest.mark.parametrize('path', sorted(library_modules()),
                         ids=lambda p: os.path.relpath(p, paths.LIBRARY))
def test_no_other_module_knows_the_storage(path):
    where = os.path.relpath(path, paths.LIBRARY)
    found = list(uses(path, INTERNAL_NAME, sql=True))
    if where == os.path.join('verdicts', 'storage.py'):
        assert found, 'the scan does not see the uses it looks for'
    else:
        assert not found, (f'{path}: {found}: ReFrame\'s storage is known '
                           f'in microbench/verdicts/storage.py only')
