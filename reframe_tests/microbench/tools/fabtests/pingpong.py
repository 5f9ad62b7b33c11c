'''What libfabric's own ``fi_pingpong`` printed (util/pingpong.c, in
Debian's libfabric-bin: not fabtests' ``fi_msg_pingpong``).

Its client and its server each print one table (spaces shortened)::

    bytes  #sent  #ack  total  time   MB/sec  usec/xfer  Mxfers/sec
    64     20     =20   2.5k   0.02s  0.11    608.10     0.00

``#sent`` the pings sent, ``#ack`` the pongs received (``=`` where every
ping was answered), then the figures of fabtests' ``show_perf``: so a
row is checked as fabtests' rows are (:mod:`.table`, two transfers per
iteration).  The parser is told the message size and the iterations
asked and holds the output to them: one table, one row, of that size,
that many pings, every one answered.  An error line of libfabric
(``fi_getinfo(): ... ret=-61``), an empty or cut output, or a row whose
figures do not follow from one another is refused, saying why.
'''

from dataclasses import dataclass

from microbench.suite import output
from microbench.suite.output import OutputError, lines, number, once
from microbench.tools.fabtests import table
from microbench.tools.fabtests.output import ERRORS
from microbench.units import MB_S_IN_MIB_S

PROGRAM = 'fi_pingpong'

COLUMNS = ['bytes', '#sent', '#ack', 'total', 'time', 'MB/sec', 'usec/xfer',
           'Mxfers/sec']


@dataclass(frozen=True)
class PingpongRun:
    '''One side's row: its message size (bytes), pings, its MB/sec (10^6
    bytes/s, as printed) and usec/xfer (half a round trip).'''

    size: int
    iterations: int
    mb_s: float
    usec_per_xfer: float

    @property
    def mib_s(self):
        return self.mb_s * MB_S_IN_MIB_S


def parse(text, size, iterations):
    '''The one row of an ``fi_pingpong -S size -I iterations`` run.

    :raises OutputError: on empty, cut or error output, a table or a row
        missing or given twice, another size or count than asked, a ping
        not answered, figures that do not follow from one another.'''
    found = lines(text)
    output.reject_errors(text, ERRORS, PROGRAM)
    header = once([index for index, line in enumerate(found)
                   if line.split() == COLUMNS], 'result table')
    rows = [line.split() for line in found[header + 1:] if line.strip()]
    if not rows:
        raise OutputError('no result row after the table\'s header (cut '
                          'short?)')
    fields = once(rows, 'result row')
    if len(fields) != len(COLUMNS):
        raise OutputError(f'the result row has {len(fields)} columns, not '
                          f'{len(COLUMNS)}: {" ".join(fields)!r}')
    sent, acked = fields[1], fields[2]
    if sent != str(iterations):
        raise OutputError(f'{sent} pings sent, not the {iterations} asked')
    if acked != f'={sent}':
        raise OutputError(f'#ack is {acked!r}, not ={sent}: not every ping '
                          f'was answered')
    row = table.Row([fields[0], sent, *fields[3:]])
    if row.size != size:
        raise OutputError(f'the row is of {fields[0]} bytes, not the '
                          f'{size} asked')
    table.check(row, PROGRAM)
    return PingpongRun(row.size, iterations,
                       number(fields[5], 'the MB/sec of the row',
                              positive=False),
                       number(fields[6], 'the usec/xfer of the row'))
