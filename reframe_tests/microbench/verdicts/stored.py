'''``microbench stored REPORT...``: is the session of a ReFrame run in the
results storage?

ReFrame stores a session at the end of its run, under a file lock.  When
the store fails (a lock timeout, a full disk, a read-only directory) it
prints a warning and still exits 0: a night's figures would vanish and
the nightly job stay green.  So after each run, ci/nightly.sh and
ci/post_upgrade.sh give the run's report (``--report-file``) to this
command: exit 0 when its session (``session_info.uuid``) is in the
storage, else exit :data:`NOT_STORED` with one line naming the error on
stderr; the same when the report is missing (ReFrame died before writing
it) or is not a ReFrame run report.  A session UUID may be given instead
of a report.  The storage is read under ReFrame's read lock
(:func:`.storage.holds`): a session ReFrame is writing is whole or not
there.
'''

import json
import os
import sys
import uuid

from microbench.verdicts import storage

HELP = 'exit 0 when the session of a run report (or a UUID) is stored'

#: The exit status when a session is not in the storage, or its run
#: report is missing or not one (compare uses 1 and 2, the nightly 3)
NOT_STORED = 4

#: Why a session of a run is not in the storage
WHY = ('ReFrame could not store it (see its output: lock timeout, full '
       'disk, read-only directory?)')


class NotStored(Exception):
    '''A session not in the storage, or a run report missing or not one.'''


def is_uuid(text):
    '''Whether ``text`` is a UUID in its usual form (ReFrame's session
    UUIDs).'''
    try:
        return len(text) == 36 and bool(uuid.UUID(text))
    except ValueError:
        return False


def session_uuid(report, db):
    '''The session UUID of the ReFrame run report at ``report``, checked:
    a JSON object whose ``session_info.uuid`` is a UUID string.'''
    try:
        with open(report, encoding='utf-8') as fp:
            data = json.load(fp)
    except FileNotFoundError:
        raise NotStored(f'run report {report} is missing: ReFrame died '
                        f'before writing it, or ran no test (see its '
                        f'output); no session of this run is in the '
                        f'results storage {db}') from None
    except (OSError, ValueError) as err:
        # ValueError: not JSON (cut short), not UTF-8
        raise NotStored(f'run report {report} cannot be read '
                        f'({type(err).__name__}: {err}): its session '
                        f'cannot be looked up in the results storage '
                        f'{db}') from None

    info = data.get('session_info') if isinstance(data, dict) else None
    value = info.get('uuid') if isinstance(info, dict) else None
    if not isinstance(value, str) or not is_uuid(value):
        found = ('no session_info.uuid' if value is None else
                 f'session_info.uuid {value!r}, not a UUID string')
        raise NotStored(f'run report {report} is not a ReFrame run report '
                        f'({found}): its session cannot be looked up in '
                        f'the results storage {db}')
    return value


def unreadable(db, err):
    '''Why the storage at ``db`` cannot say which sessions it holds.'''
    if os.path.isdir(db):
        return 'it is a directory, not a results storage'
    if not os.path.exists(db):
        return 'there is no such file'
    if os.path.isfile(db) and os.path.getsize(db) == 0:
        return 'it is empty'
    return f'it cannot be read: {type(err).__name__}: {err}'


def check(target, db):
    '''The UUID of the session of ``target`` (a run report, or a session
    UUID) when it is in the storage at ``db``; else :class:`NotStored`.'''
    if not os.path.exists(target) and is_uuid(target):
        session, of = target, ''
    else:
        session, of = session_uuid(target, db), f' of {target}'
    line = (f'session {session}{of} is not in the results storage {db}: '
            f'{WHY}')
    try:
        found = storage.holds(db, session)
    except Exception as err:
        # missing, a directory, foreign, corrupt, another schema, locked:
        # the session cannot be there to read
        raise NotStored(f'{line}; {unreadable(db, err)}') from None
    if not found:
        raise NotStored(line)
    return session


def add_arguments(parser):
    parser.add_argument('targets', nargs='+', metavar='REPORT_OR_UUID',
                        help="a ReFrame run report (--report-file), or a "
                        "session UUID")
    parser.set_defaults(handler=run)


def run(args):
    db = storage.database(args.db)
    code = 0
    for target in args.targets:
        try:
            session = check(target, db)
        except NotStored as err:
            print(f'microbench stored: error: {err}', file=sys.stderr)
            code = NOT_STORED
        else:
            of = '' if session == target else f' of {target}'
            print(f'session {session}{of} is in the results storage {db}')
    return code
