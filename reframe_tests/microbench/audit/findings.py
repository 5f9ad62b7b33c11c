'''What a finding is, and the catalogue entries the audit judges.

A finding names its catalogue entry (S1-S7, N1-N3 and M1, one run where
samples are needed: microbench/catalogue.py, docs/reference/pitfalls.md),
the evidence (the option, or its absence) and where it is (file and
line), why it distorts the figure (and the paper's section or the
source), how sure it is (``certain``, or ``depends on ...``) and the
realistic form: the input rewritten, ready to run.  Each entry's title
and reason are its catalogue entry's, and it names the check that
measures the pitfall and the gap that check reports.
'''

from dataclasses import dataclass, field

from microbench import catalogue

#: How sure a finding is when nothing else decides it
CERTAIN = 'certain'


@dataclass(frozen=True)
class Entry:
    '''A catalogue entry the audit judges.'''

    id: str
    title: str
    #: why it distorts the figure: the paper's section or the source
    why: str
    #: the check measuring it, and the gap the check reports (or None)
    check: str = None
    gap: str = None


def _entry(rule, pitfall):
    '''The audit's entry of ``rule``, from its catalogue entry: its
    name, how it distorts the figure and where that comes from, and the
    first of its checks that reports a gap.'''
    check = next((c for c in pitfall.checks if c.gap), None)
    return Entry(rule, pitfall.name, catalogue.why(pitfall),
                 check.name if check else None, check.gap if check else None)


#: Every entry the audit judges, by id: the catalogue's entries that name
#: an audit rule (microbench/catalogue.py)
CATALOGUE = {rule: _entry(rule, pitfall)
             for rule, pitfall in catalogue.audited().items()}


@dataclass(frozen=True)
class Where:
    '''Where in the input: its name, a line (1-based, None for the whole
    input) and that line's text.'''

    file: str
    line: int = None
    text: str = ''

    def __str__(self):
        return f'{self.file}:{self.line}' if self.line else self.file


@dataclass
class Finding:
    '''One pitfall found in one invocation.'''

    pitfall: str
    evidence: str
    where: Where
    certainty: str = CERTAIN
    #: the input rewritten, ready to run (None: no rewrite can be run)
    realistic: str = None
    #: what the realistic form needs besides the rewrite, or None
    note: str = None
    #: what ``--measure`` runs (:mod:`.measure`), or None
    measure: dict = None
    #: the rewrite as the tool's rules apply it (options to set or drop),
    #: and the fio job it applies to: what ``--measure`` runs
    fix: object = field(default=None, repr=False)
    job: object = field(default=None, repr=False)

    @property
    def entry(self):
        return CATALOGUE[self.pitfall]

    @property
    def why(self):
        return self.entry.why

    @property
    def check(self):
        '''The check that measures this finding: the one its ``measure``
        names (IOR's write phase: ``ior_page_cache``), else its
        entry's.'''
        return (self.measure or {}).get('check') or self.entry.check

    @property
    def gap(self):
        '''The gap that check reports of this finding.'''
        return (self.measure or {}).get('gap') or self.entry.gap

    def as_dict(self):
        return {'pitfall': self.pitfall, 'title': self.entry.title,
                'evidence': self.evidence, 'file': self.where.file,
                'line': self.where.line, 'why': self.why,
                'certainty': self.certainty, 'realistic': self.realistic,
                'note': self.note, 'check': self.check, 'gap': self.gap}


@dataclass
class Invocation:
    '''One benchmark invocation judged: its tool, where it is, its findings,
    the options the audit does not know (listed as not judged) and what
    could not be seen.'''

    tool: str
    where: Where
    findings: list = field(default_factory=list)
    not_judged: list = field(default_factory=list)
    unseen: list = field(default_factory=list)
    #: the whole invocation with every finding's rewrite applied
    realistic: str = None
    #: how the launcher's words change where a finding unbinds (N3)
    binding_fix: object = field(default=None, repr=False)

    def as_dict(self):
        return {'tool': self.tool, 'file': self.where.file,
                'line': self.where.line, 'text': self.where.text,
                'findings': [f.as_dict() for f in self.findings],
                'not_judged': list(self.not_judged),
                'unseen': list(self.unseen), 'realistic': self.realistic}


#: The longest message of an input the audit cannot judge
MESSAGE_CHARS = 2000


class Unreadable(Exception):
    '''An input the audit cannot judge (exit 2): an unknown program, an
    option the tool itself would reject, a truncated job file, a binary
    file, a Darshan log pydarshan cannot read.  Its message is one line,
    whatever text of the input it quotes: line breaks become blanks and
    it is cut to :data:`MESSAGE_CHARS`.'''

    def __init__(self, message):
        message = ' '.join(str(message).splitlines())
        if len(message) > MESSAGE_CHARS:
            message = message[:MESSAGE_CHARS] + ' ...'
        super().__init__(message)


def depends(on):
    '''The certainty of a finding that depends ``on`` something.'''
    return f'depends on {on}'
