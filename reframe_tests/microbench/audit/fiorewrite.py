'''A fio input rewritten: a job's settings changed where the job is
defined, on its command line or in its job file, so that the result runs
as it is.

A fix is ``{option: value}``: the value ``''`` sets a bare option,
``None`` removes one (and turns it off where a default would still set
it).  Settings of the job's own group or section are replaced in place;
the others are added at its end, where fio's last-option-wins rule makes
them hold.
'''

import shlex

from microbench.audit import fiojob

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


class CommandSource:
    '''A fio command line (its launcher kept), and the job files it names
    (as :class:`FileSource`).'''

    def __init__(self, launch, files=()):
        self.launch = launch
        self.files = {source.path: source for source in files}

    def text(self, argv=None):
        return self.launch.text(argv)

    def rewrite(self, job, fixes):
        if job.path is not None and job.path in self.files:
            return self.files[job.path].rewrite(job, fixes)
        argv = list(self.launch.argv)
        own = [o for o in job.settings[_own_start(job):]
               if o.origin == 'command line' and o.word is not None]
        end = (max(o.word + o.span for o in own) + 1) if own \
            else len(argv)
        drop = _names(fixes)
        own = {o.word + 1 + k for o in own for k in range(o.span)
               if fiojob.canonical(o.name) in drop}
        kept_before = [w for i, w in enumerate(argv[:end]) if i not in own]
        still = _inherited(job, fixes)
        added = [f'--{text}' for name, value in fixes.items()
                 for text in [_setting(name, value, still.get(name))]
                 if text]
        return self.text(kept_before + added + argv[end:])

    def looped(self, job):
        return loop(self.text())


def _own_start(job):
    '''Index of the first setting of the job itself, after the defaults
    it inherits: its ``--name`` on a command line, its first line in its
    section of a job file.'''
    for index, option in enumerate(job.settings):
        if option.origin == 'command line' and option.name == 'name':
            return index
        if option.origin == 'file' and \
                option.where.file == job.where.file and \
                option.where.line > job.where.line:
            return index
    return len(job.settings)


def _inherited(job, fixes):
    '''{option: whether a default outside the job's own settings still
    sets it} of the options ``fixes`` remove.'''
    own = job.settings[_own_start(job):]
    out = {}
    for name in fixes:
        names = SAME.get(name, (name,))
        out[name] = any(o.name in names for o in job.settings
                        if o not in own)
    return out


class FileSource:
    '''A fio job file: its lines, rewritten section by section.'''

    def __init__(self, path, text, command=None):
        self.path = path
        self.lines = text.splitlines()
        self.command = command

    def rewrite(self, job, fixes):
        lines = list(self.lines)
        start = job.where.line            # the [job] header, 1-based
        end = start
        while end < len(lines) and not lines[end].strip().startswith('['):
            end += 1
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
        tail = lines[end:]
        rewritten = lines[:start] + section + added + (
            [''] if tail else []) + tail
        return '\n'.join(rewritten) + '\n'

    def looped(self, job):
        command = self.command or f'fio {shlex.quote(self.path)}'
        return loop(command)
