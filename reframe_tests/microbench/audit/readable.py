'''The commands of one input the audit can read, judged, and why it
cannot read each other one: a shell goes on past a command that fails
(the tool refuses a word, an en dash for a dash), so one such command
does not refuse a script, nor the tests of an IOR script, nor the
classes of a ReFrame check, except under ``set -e``.'''

import re

from microbench.audit import bounds, words
from microbench.audit.findings import Unreadable
from microbench.audit.launchers import LAUNCHER_VARIABLE, LAUNCHERS
from microbench.audit.programs import tool_of


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


#: A line that ends with an option (``... -b``, ``--dir``): its value may
#: be on the next line where a document wrapped the command
_ENDS_WITH_OPTION = re.compile(r'\s-{1,2}[A-Za-z][\w.-]*$')


def unwrapped(text):
    '''A text of command lines with each command a document wrapped
    (a PDF's, a web page's: ``mdtest ... -b`` then ``$Directories -z 1
    ...`` without a backslash) joined again: a line after one that ends
    with an option, and that does not start a command of its own, is the
    rest of that command.  Linear in the text.'''
    out = []                       # each command, as the lines it joins
    for line in text.splitlines():
        first = line.split()[0] if line.split() else ''
        if out and first and _ENDS_WITH_OPTION.search(out[-1][-1]) and \
                not _starts_command(first):
            out[-1].append(line.strip())     # the last line only: linear
        else:
            out.append([line])
    return '\n'.join(' '.join(pieces) for pieces in out) + (
        '\n' if text.endswith('\n') else '')


def _starts_command(word):
    '''Whether a line's first word starts a command: a benchmark, a
    launcher, a wrapper, a prompt or a comment.'''
    name = words.program_name(word)
    return word[0] in '#$>' and not re.match(r'^\$[\w{]', word) or \
        tool_of(name) is not None or \
        name in LAUNCHERS or LAUNCHER_VARIABLE.match(word) is not None or \
        name in words.WRAPPERS or name in words.SHELLS
