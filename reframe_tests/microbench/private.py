'''ReFrame's private API: every use of a ReFrame name that starts with an
underscore, in this one module.

ReFrame documents no way to do three things the suite needs, so this module
does them through ReFrame's private names, each in one function here and
listed in :data:`PRIVATE` with why no public way serves:

- read its results storage under its own read lock, schema check and
  query filter (:mod:`microbench.verdicts.storage` calls them);
- judge one variant of a pitfall for its gap outside that variant's own
  test (:meth:`microbench.suite.variant.VariantCheck.as_input`): a gap
  must not depend on its variants' tests, which ReFrame skips with it
  when a variant fails its reference;
- read one side of an A/B rounds job as a job of that side alone
  (:func:`microbench.suite.stacked.view`): the fixture with its stage and
  output directories moved to the side's own.

This module imports nothing of ReFrame: it acts on the ReFrame objects it
is given.  ``tests/verdicts/test_reframe_private.py`` checks each use
against the installed ReFrame, and fails, naming them, when ReFrame's
version is not the one they were written against; it also holds every
other module of the library to no private ReFrame name.
'''

#: The ReFrame release the private uses were written against
TESTED_REFRAME = '4.10.4'

#: Every private use of ReFrame, and why no public way serves
PRIVATE = {
    '_SqliteStorage._db_file': "ReFrame's own schema check before a read",
    '_SqliteStorage._db_read':
        "a connection under ReFrame's read lock: no half-written session",
    '_SqliteStorage._db_filter_json':
        "a query's filter on a session's extras, exactly as ReFrame "
        'applies it',
    'RegressionTest._current_partition, _current_environ':
        'a variant judged for its gap with the partition and environment '
        'the gap runs on; ReFrame sets them only in the setup stage, '
        'which would make (and wipe) the stage directory of the '
        "variant's own test",
    'RegressionTest._stagedir, _outputdir':
        "one side of an A/B rounds job read as a job of its own: the "
        "fixture's view whose stage and output directories are the side's "
        '(every reader of its files, a tool\'s included, then reads that '
        'side unchanged); ReFrame sets them only in the setup stage',
}


def check_schema(backend):
    '''ReFrame's check of a storage's schema (raises as ReFrame does).'''
    backend._db_file()


def read_locked(backend, path):
    '''A connection to the storage at ``path`` under ReFrame's read lock
    (a context manager).'''
    return backend._db_read(path)


def filter_matches(backend, sess_filter, info):
    '''ReFrame's evaluation of a query's filter on a session's ``info``.'''
    return backend._db_filter_json(sess_filter, info)


def place(check, partition, environ):
    '''Give ``check`` the partition and environment it is judged on,
    without its setup stage.'''
    check._current_partition = partition
    check._current_environ = environ


def relocate(test, stagedir, outputdir):
    '''Give ``test`` (a copy of a test, never a test ReFrame runs) the
    stage and output directories ``stagedir`` and ``outputdir``.'''
    test._stagedir = stagedir
    test._outputdir = outputdir
