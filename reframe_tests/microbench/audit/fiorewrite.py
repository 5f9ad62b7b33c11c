'''A fio input rewritten: a job's settings changed where the job is
defined, on its command line or in its job file, so that the result runs
as it is.

A fix is ``{option: value}``: the value ``''`` sets a bare option,
``None`` removes one (and turns it off where a default would still set
it).  Settings of the job's own group or section are replaced in place;
the others are added at its end, where fio's last-option-wins rule makes
them hold.

Each job's realistic form is the whole input rewritten while the input's
jobs times its bytes stay within :data:`~.bounds.WHOLE_REWRITE_BYTES`;
past that, only the job's own section (or its own words), so that an
input of thousands of jobs is written out once in all, not once per job
(a file of 5000 sections wrote 1.4 GB), and rewritten in time linear in
its size.
'''

import bisect
import shlex

from microbench.audit import bounds, fiojob, words

#: fixes of one option also drop the settings that mean the same
SAME = {'direct': ('direct', 'buffered'), 'buffered': ('direct', 'buffered')}

#: The loop that makes one run into the samples M1 asks for
RUNS = 3


def _names(fixes):
    out = set()
    for name in fixes:
        out.update(SAME.get(name, (name,)))
        out.add(fiojob.canonical(name))
    return out


def _setting(name, value, still):
    '''The text of one setting of a fix (None: nothing to write).'''
    if value is None:
        return f'{name}=0' if still else None
    return name if value == '' else f'{name}={value}'


def loop(command):
    return f'for run in $(seq {RUNS}); do {command}; done'


def whole(jobs, size):
    '''Whether each of ``jobs`` jobs of an input of ``size`` bytes is
    shown the whole input rewritten.'''
    return jobs * size <= bounds.WHOLE_REWRITE_BYTES


class CommandSource:
    '''A fio command line (its launcher kept), and the job files it names
    (as :class:`FileSource`).'''

    def __init__(self, launch, files=(), jobs=1):
        self.launch = launch
        self.files = {source.path: source for source in files}
        self.whole = whole(jobs, sum(len(w) + 1 for w in launch.prefix)
                           + sum(len(w) + 1 for w in launch.argv))

    def text(self, argv=None):
        return self.launch.text(argv)

    def rewrite(self, job, fixes):
        if job.path is not None and job.path in self.files:
            return self.files[job.path].rewrite(job, fixes)
        argv = self.launch.argv
        own = [o for o in job.own
               if o.origin == 'command line' and o.word is not None]
        end = (max(o.word + o.span for o in own) + 1) if own \
            else len(argv)
        drop = _names(fixes)
        dropped = {o.word + 1 + k for o in own for k in range(o.span)
                   if fiojob.canonical(o.name) in drop}
        still = _inherited(job, fixes)
        added = [f'--{text}' for name, value in fixes.items()
                 for text in [_setting(name, value, still.get(name))]
                 if text]
        if not self.whole and own:
            first = min(o.word for o in own) + 1
            kept = [argv[i] for i in range(first, end) if i not in dropped]
            return f'{self.launch.program} ... ' + words.Launch(
                [], kept + added).text()
        kept_before = [w for i, w in enumerate(argv[:end])
                       if i not in dropped]
        return self.text(kept_before + added + list(argv[end:]))

    def looped(self, job):
        if not self.whole:
            return loop(self.rewrite(job, {}))
        return loop(self.text())


def _removable(job, option):
    '''Whether a rewrite of ``job`` can take ``option`` out: one of the
    job's own command-line words, or a line of its own section (not of a
    file it includes).'''
    if option.origin == 'command line':
        return True
    return option.where.file == job.where.file


def _inherited(job, fixes):
    '''{option: whether a setting the rewrite cannot take out (a default,
    a ``[global]`` line, an included line) still sets it} of the options
    ``fixes`` remove.'''
    out = {}
    for name in fixes:
        names = SAME.get(name, (name,))
        out[name] = job.inherited.names_any(names) or any(
            o.name in names for o in job.own if not _removable(job, o))
    return out


class FileSource:
    '''A fio job file: its lines, rewritten section by section.'''

    def __init__(self, path, text, command=None, jobs=1):
        self.path = path
        self.lines = text.splitlines()
        self.command = command
        self.whole = whole(jobs, len(text))
        #: the index of every section header line
        self._headers = [index for index, line in enumerate(self.lines)
                         if line.strip().startswith('[')]

    def _end(self, start):
        '''The index of the line after the section whose first line (after
        its header) is ``start``.'''
        at = bisect.bisect_left(self._headers, start)
        return self._headers[at] if at < len(self._headers) \
            else len(self.lines)

    def rewrite(self, job, fixes):
        lines = self.lines
        start = job.where.line            # the [job] header, 1-based
        end = self._end(start)
        drop = _names(fixes)
        section = []
        for number in range(start, end):
            line = lines[number]
            key = line.split('=', 1)[0].strip()
            if fiojob.canonical(key) in drop and \
                    not line.strip().startswith((';', '#')):
                continue
            section.append(line)
        while section and not section[-1].strip():
            section.pop()
        still = _inherited(job, fixes)
        added = [text for name, value in fixes.items()
                 for text in [_setting(name, value, still.get(name))]
                 if text]
        if not self.whole:
            note = (f'; {self.path}:{start}: job {job.name} alone, '
                    f'rewritten (its [global] sections and other jobs as '
                    f'in the file)')
            return '\n'.join([note, lines[start - 1], *section,
                              *added]) + '\n'
        tail = lines[end:]
        rewritten = lines[:start] + section + added + (
            [''] if tail else []) + tail
        return '\n'.join(rewritten) + '\n'

    def looped(self, job):
        command = self.command or f'fio {shlex.quote(self.path)}'
        return loop(command)
