'''What a rounds job says on the console while it runs: the benchmark lock
it waits for (whose, since when) and each sample as it ends (variant, round,
figures).

ReFrame reads a job's standard output only once the job has ended, and a
rounds job runs every sample of a pitfall: minutes with nothing on the
console, or more when another run holds the benchmark lock.  So the job's
shell (``progress.sh``, beside ``rounds.sh``) writes one line per event to a
file of its stage directory, :data:`FILE`, and the rounds fixture reads the
new lines on every poll of ReFrame's run loop
(:meth:`~microbench.suite.rounds.Rounds.run_complete`) and prints them
through ReFrame's logger, on the console of whoever runs ``reframe``: live
on the local scheduler (ReFrame polls it 2 to 10 times a second here) and
on a cluster whose stage directory the login node sees (every poll of the
scheduler, a few seconds).

This module reads that file (:class:`Follower`: bounded, each bad line one
warning naming the file and the line) and says each event in words
(:func:`words`); a sample's figures come from the rounds fixture, which
reads the sample's files as its check will, in the units its check
reports them in (:func:`lend_units`).
'''

import collections
import math
import os
import shlex
import socket
import sys
import time

#: The progress file of a rounds job, in its stage directory
FILE = 'rounds_progress.txt'

#: The most of the file read on one poll, and the longest line: the job
#: writes lines of a few hundred bytes, a few per sample
READ_CAP = 1 << 20
LONGEST_LINE = 4096

#: The console's status column of each event, as wide as ReFrame's own
#: (``[ RUN      ]``)
TAGS = {'lock_wait': 'LOCK', 'lock_taken': 'LOCK', 'witness': 'WITNESS',
        'warmup': 'SAMPLE', 'sample': 'SAMPLE', 'bad': 'PROGRESS'}

#: Every event's fields after its time, in order (progress.sh writes them)
FIELDS = {
    'lock_wait': ('lock', 'since', 'waited', 'holder'),
    'lock_taken': ('lock', 'waited'),
    'witness': ('variant', 'kind', 'status', 'start'),
    'warmup': ('variant', 'round', 'rounds', 'status', 'start'),
    'sample': ('variant', 'round', 'rounds', 'status', 'start'),
}

#: Fields that are numbers: seconds since the epoch (``since`` may be
#: ``-``: the holder did not say), seconds, counts, exit statuses
NUMBERS = {'since': float, 'waited': float, 'start': float, 'round': int,
           'rounds': int, 'status': int}

#: The witness kinds of the skeleton, in words
WITNESSES = {'witness': 'the witness', 'darshan': 'the Darshan witness'}

Event = collections.namedtuple('Event', 'end kind fields')

#: (rounds fixture class, variant) -> {figure: unit}: what the variant's
#: check reports, so a progress line says a sample's figures in its units
_UNITS = {}


def lend_units(rounds_class, variant, specs):
    '''The check of ``variant`` of the rounds fixture ``rounds_class``
    reports ``specs`` ([(figure, unit)]): its samples' progress lines say
    them in those units.'''
    _UNITS.setdefault((rounds_class, variant), {}).update(dict(specs))


def units_of(rounds_class, variant):
    '''{figure: unit} the checks of ``variant`` report ({}: unknown, as
    when only the rounds fixture was loaded).'''
    return dict(_UNITS.get((rounds_class, variant), {}))


def run_by():
    '''Who runs the job, for the lock's holder line: this process (ReFrame)
    and its command line, on one line of at most 300 characters.'''
    argv = [os.path.basename(sys.argv[0] or 'python'), *sys.argv[1:]]
    said = (f'reframe pid {os.getpid()} on {socket.gethostname()}: '
            f'{shlex.join(argv)}')
    return ' '.join(said.split())[:300]


def parse(line):
    '''The :class:`Event` of one progress line (without its newline).

    :raises ValueError: not a line of :data:`FIELDS`, saying what is wrong.
    '''
    end, _, rest = line.partition('\t')
    kind, _, rest = rest.partition('\t')
    if kind not in FIELDS:
        raise ValueError(f'an unknown event {kind[:40]!r}')
    names = FIELDS[kind]
    values = rest.split('\t', len(names) - 1) if rest else []
    if len(values) != len(names):
        raise ValueError(f'{kind} has {len(values)} fields, not '
                         f'{len(names)}')
    fields = {}
    for name, value in zip(names, values):
        fields[name] = value
        if name in NUMBERS and not (name == 'since' and value == '-'):
            fields[name] = _number(value, name, NUMBERS[name])
    return Event(_number(end, 'the time', float), kind, fields)


def _number(text, name, kind):
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f'{name} is {text[:40]!r}, not a number') from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f'{name} is {text[:40]!r}, not a finite number '
                         f'of at least 0')
    return value


class Follower:
    '''The new events of a progress file, poll after poll.

    Each :meth:`events` call reads what the job appended since the last
    one, at most :data:`READ_CAP` bytes (the rest on the next call), and
    keeps a line the job has not finished writing for the next call.  A
    line that does not parse, or one longer than :data:`LONGEST_LINE`, is
    an event of kind ``bad`` whose ``why`` names the file and the line: a
    warning, never an exception.
    '''

    def __init__(self, path):
        self.path = path
        self.offset = 0
        self.line = 0
        self.partial = b''
        #: Whether the rest of a line found too long is being skipped
        self.skipping = False

    def events(self):
        '''The events of the lines completed since the last call.'''
        try:
            with open(self.path, 'rb') as fp:
                fp.seek(self.offset)
                data = fp.read(READ_CAP)
        except OSError:
            return []    # not written yet
        self.offset += len(data)
        *lines, self.partial = (self.partial + data).split(b'\n')
        out = []
        for line in lines:
            if self.skipping:
                self.skipping = False    # the end of the long line
            else:
                out.append(self._event(line))
        if len(self.partial) > LONGEST_LINE and not self.skipping:
            out.append(self._event(self.partial))
            self.skipping = True
        if self.skipping:
            self.partial = b''
        return out

    def _event(self, raw):
        self.line += 1
        try:
            if len(raw) > LONGEST_LINE:
                raise ValueError(f'longer than {LONGEST_LINE} bytes')
            return parse(raw.decode('utf-8', errors='replace'))
        except ValueError as err:
            return Event(None, 'bad', {
                'why': f'{self.path}, line {self.line}: {err}'})


def duration(seconds):
    '''``75`` -> ``1 min 15 s``; ``3.2`` -> ``3.2 s``.'''
    if seconds < 60:
        return f'{seconds:.1f} s' if seconds < 10 else f'{seconds:.0f} s'
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f'{minutes} min {secs} s'
    return f'{minutes // 60} h {minutes % 60} min'


def _clock(epoch, now):
    '''The time of ``epoch``, with its date unless it is ``now``'s day.'''
    local = time.localtime(epoch)
    same_day = local[:3] == time.localtime(now)[:3]
    return time.strftime('%H:%M:%S' if same_day else '%Y-%m-%d %H:%M:%S',
                         local)


def _held(event):
    '''"held since 14:02:11 (35 s ago) by <holder>".'''
    since = event.fields['since']
    when = ('' if since == '-' else
            f' since {_clock(since, event.end)} '
            f'({duration(max(event.end - since, 0))} ago)')
    return f'held{when} by {event.fields["holder"]}'


def value_words(value):
    '''A figure's value, to four significant digits (whole above 1000).'''
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return str(value)
    return f'{value:.0f}' if abs(value) >= 1000 else f'{value:.4g}'


def figure_words(figures, units):
    '''``write 1030 MiB/s``: the figures its check reports, in their
    units; where none is known (no variant check lent them: ior_scaling
    is a rounds job of its own), every figure, saying so.'''
    known = [f'{name} {value_words(value)} {units[name]}'
             for name, value in figures.items() if name in units]
    if known:
        return ', '.join(known)
    if not figures:
        return 'no figures'
    return ', '.join(f'{name} {value_words(value)}'
                     for name, value in figures.items()) + \
        ' (no unit known to the rounds job: its check reports them)'


def words(event, figures=None):
    '''(status tag, the event in words); ``figures`` says a sample's
    figures (a function of the variant and the sample's number, or
    name: ``warmup1``, returning words).'''
    tag = TAGS[event.kind]
    fields = event.fields
    if event.kind == 'bad':
        return tag, f'a progress line is not read: {fields["why"]}'
    if event.kind == 'lock_wait':
        if fields['waited'] == 0:
            return tag, (f'waits for the benchmark lock {fields["lock"]}, '
                         f'{_held(event)}')
        return tag, (f'still waits for the benchmark lock {fields["lock"]} '
                     f'({duration(fields["waited"])} so far), '
                     f'{_held(event)}')
    if event.kind == 'lock_taken':
        return tag, (f'took the benchmark lock {fields["lock"]} after '
                     f'{duration(fields["waited"])}')
    took = duration(max(event.end - fields['start'], 0))
    if event.kind == 'witness':
        ran = ('ran' if fields['status'] == 0 else
               f'failed (exit code {fields["status"]}): the variant fails')
        return tag, (f'{fields["variant"]}: '
                     f'{WITNESSES.get(fields["kind"], fields["kind"])} '
                     f'{ran} ({took})')
    warmup = event.kind == 'warmup'
    which = (f'{"warm-up round" if warmup else "round"} {fields["round"]} '
             f'of {fields["rounds"]}')
    if fields['status'] != 0:
        said = (f'failed (exit code {fields["status"]}): the variant runs '
                f'no more')
    elif figures is None:
        said = 'done'
    else:
        number = f'warmup{fields["round"]}' if warmup else fields['round']
        said = figures(fields['variant'], number)
    return tag, f'{fields["variant"]}, {which}: {said} ({took})'


def console_line(tag, name, text):
    '''One console line: ``[ SAMPLE   ] <name>: <text>``.'''
    return f'[ {tag:<8} ] {name}: {text}'
