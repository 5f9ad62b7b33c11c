'''What a finding is, and the catalogue entries the audit judges.

A finding names its catalogue entry (S1-S7 and N1-N3: docs/index.md; M1,
one run where samples are needed: docs/operators/audit.md), the evidence
(the option, or its absence) and where it is (file and line), why it
distorts the figure (the paper's section or the source), how sure it is
(``certain``, or ``depends on ...``) and the realistic form: the input
rewritten, ready to run.  Each entry names the check that measures the
pitfall and the gap that check reports.
'''

from dataclasses import dataclass, field

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


#: Every entry the audit judges, by id
CATALOGUE = {entry.id: entry for entry in (
    Entry('S1', 'cache flags: buffered writes measure the page cache',
          'buffered writes land in the page cache: the figure is system '
          'calls and memcpy, not storage ("Keeping It Real", PDSW 2020, '
          'section II-D, Fig. 6)', 'fio_cache_flags', 'buffered_over_direct'),
    Entry('S2', 'file allocation: the file is preallocated before the timed '
          'phase', 'the benchmark reserves the file (fallocate()) before '
          'it times the writes, hiding the block allocation and size '
          'updates a growing file pays ("Keeping It Real", section II-E, '
          'Fig. 7)', 'fio_fallocate', 'preallocated_over_none'),
    Entry('S3', 'time_based overwrite: a small file written again and again',
          'with time_based the benchmark wraps at the end of a small file '
          'and overwrites blocks already allocated and cached ("Keeping It '
          'Real", section II-E, Fig. 7)', 'fio_time_based_overwrite',
          'overwrite_over_baseline'),
    Entry('S4', 'read after write (or stat after create) from the client\'s '
          'cache', 'a task reads back what its own node just wrote: the '
          'page cache answers, not storage (Lockwood, "Basics of I/O '
          'Benchmarking"; IO500\'s rules -C -Q 1 -e)', 'ior_page_cache',
          'easy_read_none_over_reorder_fsync'),
    Entry('S5', 'stripe count and alignment on Lustre',
          'a shared file on Lustre\'s default layout (one stripe) is '
          'served by one storage target (Snyder; lfs setstripe -c)',
          'lustre_striping', 'striped_over_one_stripe'),
    Entry('S6', 'data reduction: data a compressing or deduplicating '
          'store keeps in a fraction of its size', 'zero-filled, '
          'compressible or repeated buffers are stored reduced: the figure '
          'is not that of the bytes written (IO500 rule 7)'),
    Entry('S7', 'polled storage completions', 'io_uring\'s hipri or '
          'sqthread_poll spin a core for completions, which the job\'s CPU '
          'figures do not show (the storage form of N2)'),
    Entry('N1', 'buffer reuse: every message from one hot buffer',
          'osu_bw sends every message from one buffer, registered and '
          'cached; a data service moves data from many addresses ("Keeping '
          'It Real", section II-A, Figs. 2-3)', 'osu_buffer_reuse',
          'multiple_over_single'),
    Entry('N2', 'completion method: busy polling',
          'fabtests poll the completion queue in a loop, burning a core; a '
          'service that waits blocks on a file descriptor ("Keeping It '
          'Real", section II-B, Fig. 4)', 'fabtests_completion',
          'fd_over_spin'),
    Entry('N3', 'CPU binding: a process that needs two cores pinned to one',
          'the provider\'s progress thread and busy polling need two cores '
          'while the launcher binds each process to one ("Keeping It '
          'Real", section II-C, Fig. 5)', 'fabtests_binding',
          'unbound_over_bound'),
    Entry('M1', 'one run, not samples', 'one measurement says nothing: '
          'repeat (3 at least, round-robin with the other configurations) '
          'and report median, min and max (Kuhn; the paper took 50)'),
)}


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

    def as_dict(self):
        return {'pitfall': self.pitfall, 'title': self.entry.title,
                'evidence': self.evidence, 'file': self.where.file,
                'line': self.where.line, 'why': self.why,
                'certainty': self.certainty, 'realistic': self.realistic,
                'note': self.note, 'check': self.entry.check,
                'gap': self.entry.gap}


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
