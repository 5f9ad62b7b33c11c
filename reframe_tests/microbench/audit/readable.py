'''The commands of one input the audit can read, judged, and why it
cannot read each other one: a shell goes on past a command that fails
(the tool refuses a word, an en dash for a dash), so one such command
does not refuse a script, nor the tests of an IOR script, nor the
classes of a ReFrame check, except under ``set -e``.'''

from microbench.audit import bounds
from microbench.audit.findings import Unreadable


def judged_each(items, judge, refused):
    '''The invocations of each of ``items`` (commands of one input) the
    audit can read; why each other one cannot is appended to ``refused``,
    and the input is refused only where none can be read.  A command
    refused under ``set -e`` (:attr:`.batch.Command.errexit`) ends the
    script: what follows it is not judged, and said.'''
    items = list(items)
    stopped, count = [], [0]

    def one(numbered):
        index, item = numbered
        if stopped:
            return []
        try:
            return judge(item)
        except Unreadable as err:
            count[0] += 1
            if len(refused) < bounds.MAX_NOT_READ:
                refused.append(str(err))
            later = len(items) - index - 1
            if getattr(item, 'errexit', False) and later:
                stopped.append(f'{item.where}: the script stops here under '
                               f'set -e: {later} later command'
                               f'{"s" if later != 1 else ""} not judged')
            return []
    found = bounds.judged(enumerate(items), one, 'commands')
    more = count[0] - 1
    if not found and refused:
        raise Unreadable(refused[0] + (f' (and {more} more refusal'
                                       f'{"s" if more != 1 else ""})'
                                       if more else ''))
    if count[0] > len(refused):
        refused.append(f'{count[0] - len(refused)} more commands not read: '
                       f'the audit lists the first {bounds.MAX_NOT_READ}')
    refused.extend(stopped)
    return found
