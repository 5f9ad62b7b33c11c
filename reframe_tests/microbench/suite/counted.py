'''Counted figures: what the scratch disk did for the bytes a sample asked
for, beside the timed figures.

Every figure the suite judges by its reference is a time, and times are
noisy: a changed default needs several nights to be called.  Some
behaviour can be *counted* instead, and a count changes by rule: the
rounds job reads the scratch disk's ``/sys/block/<disk>/stat`` before each
sample's command and after it (and after ``sync -f`` of the scratch, so
that what the sample left in the page cache is counted too), the
``counts`` record (``microbench/suite/counts.sh``)::

    <variant>: <round> <disk> <stat before> / <stat after>

and :func:`judge` turns it, with the bytes the benchmark says it moved in
that sample (a run's ``io_bytes``: fio's), into the ``counted`` field,
one value per sample:

- ``device_read_per_byte``: bytes the disk read per byte the sample read
  (read-ahead above 1, the page cache below);
- ``device_write_per_byte``: bytes the disk wrote per byte the sample
  wrote (write amplification, journalling);
- ``device_ios_per_mib``: the disk's requests per MiB the sample moved
  (request size: read-ahead, ``max_sectors_kb``, merging);
- ``device_merges_per_mib``: requests the block layer merged per MiB.

They are never performance variables (no reference band, never in a
timed figure's statistics): :mod:`microbench.verdicts.behaviour` judges
them night against nights by a rule of their own.  Whatever else the disk
did in the window (another process on it) is counted too: the rule's
tolerance covers what a quiet machine's nights spread.  A disk whose
counts cannot be read in a sample (it disappeared), a record that does
not parse, a counter that went backwards: no counted figure for that
variant, and the field's ``why`` says so; never a failed check.
'''

import collections

from microbench import fields
from microbench.units import MIB

#: The record of a sample's disk counts
RECORD = 'counts'

#: The codec of the ``counted`` field: per figure, one value per sample
CODEC = fields.COUNTED

#: The fields of /sys/block/<disk>/stat a counted figure uses (Linux's
#: Documentation/block/stat.rst, 0-based): reads, read merges, read
#: sectors, writes, write merges, write sectors
READS, READ_MERGES, READ_SECTORS = 0, 1, 2
WRITES, WRITE_MERGES, WRITE_SECTORS = 4, 5, 6
SECTOR = 512

#: The counted figures, in the order the field holds them
FIGURES = ('device_read_per_byte', 'device_write_per_byte',
           'device_ios_per_mib', 'device_merges_per_mib')

#: One sample's counts: its disk and the change of each stat field
Sample = collections.namedtuple('Sample', 'disk delta')


class CountsError(ValueError):
    '''A counts record that cannot be read.'''


def _stat(text, where):
    values = text.split()
    if values == ['gone']:
        raise CountsError(f'{where}: the disk\'s counts could not be read '
                          f'(it disappeared?)')
    if len(values) < 11:
        raise CountsError(f'{where}: {len(values)} stat fields, not 11 or '
                          f'more')
    try:
        return [int(v) for v in values]
    except ValueError:
        raise CountsError(f'{where}: a stat field is not a count') from None


def parse(values):
    '''``{round: Sample}`` of a variant's ``counts`` records (their
    ``<round> <disk> <before> / <after>`` values).

    :raises CountsError: a record that is not one, a disk that could not
        be read, a counter that went backwards, a round twice.'''
    found = {}
    for value in values:
        head, sep, after = value.partition(' / ')
        parts = head.split(None, 2)
        if not sep or len(parts) != 3 or not parts[0].isdigit():
            raise CountsError(f'{value[:80]!r} is not <round> <disk> '
                              f'<stat> / <stat>')
        round_, disk, before = int(parts[0]), parts[1], parts[2]
        lhs = _stat(before, f'round {round_} before')
        rhs = _stat(after, f'round {round_} after')
        delta = [b - a for a, b in zip(lhs, rhs)]
        if any(d < 0 for d in delta[:7]):
            raise CountsError(f'round {round_}: a counter of {disk} went '
                              f'backwards (the disk was replaced?)')
        if round_ in found:
            raise CountsError(f'round {round_} is counted twice')
        found[round_] = Sample(disk, delta)
    return found


def per_sample(sample, asked):
    '''``{figure: value}`` of one sample (``asked``: ``{'read': bytes,
    'write': bytes}`` the benchmark moved); a figure whose denominator is
    zero is left out.'''
    delta = sample.delta
    read, write = asked.get('read', 0), asked.get('write', 0)
    out = {}
    if read > 0:
        out['device_read_per_byte'] = delta[READ_SECTORS] * SECTOR / read
    if write > 0:
        out['device_write_per_byte'] = delta[WRITE_SECTORS] * SECTOR / write
    if read + write > 0:
        mib = (read + write) / MIB
        out['device_ios_per_mib'] = (delta[READS] + delta[WRITES]) / mib
        out['device_merges_per_mib'] = (delta[READ_MERGES]
                                        + delta[WRITE_MERGES]) / mib
    return out


def figures(values, runs):
    '''``{figure: [one value per sample]}`` of a variant's ``counts``
    records and its ``runs`` (in round order; each with ``io_bytes``);
    {} where the tool's runs say no bytes.

    :raises CountsError: as :func:`parse`, or a sample not counted.'''
    asked = [getattr(run, 'io_bytes', None) for run in runs]
    if not runs or any(not isinstance(a, dict) for a in asked):
        return {}
    counted = parse(values)
    missing = [i + 1 for i in range(len(runs)) if i + 1 not in counted]
    if missing:
        raise CountsError(f'samples {missing} have no disk counts')
    out = {}
    for i, moved in enumerate(asked):
        for name, value in per_sample(counted[i + 1], moved).items():
            out.setdefault(name, []).append(value)
    return {name: out[name] for name in FIGURES
            if name in out and len(out[name]) == len(runs)}


def judge(check, recs, runs):
    '''Set ``check``'s ``counted`` field from the variant's records and
    runs; where they cannot be counted, say why in its note.'''
    values = recs.get(RECORD, [])
    if not values:
        return
    try:
        found = figures(values, runs)
    except CountsError as err:
        check.note = '; '.join(filter(None, [
            check.note, f'no counted figures: {err}']))
        return
    check.counted = CODEC.encode(found)
