'''Markdown documents (README.md, a site's benchmarking guide, an issue
thread): the commands of their fenced code blocks and of lines that are
one inline code span, never their prose.
A block whose lines start with a prompt (``$ ``) is a console transcript:
its prompted lines are the commands, the rest their output.  Blocks of
another language (``python``, ``yaml``, ``json``, ...) are not commands.
The blocks are read as one script, in order, on their own line numbers
(a variable set in one block is set in the next, as a reader typing them
into one shell would have it).'''

import re

from microbench.audit.programs import tool_of

#: A fence that opens or closes a code block (up to three blanks before
#: it, three or more backticks or tildes), and the block's language
_FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)')
#: Languages whose blocks are not the shell's
NOT_SHELL = {'python', 'py', 'python3', 'yaml', 'yml', 'json', 'c', 'cpp',
             'c++', 'java', 'go', 'rust', 'ini', 'toml', 'xml', 'html',
             'diff', 'javascript', 'js', 'ts', 'csv', 'dockerfile', 'make',
             'makefile', 'cmake', 'r', 'julia', 'fortran', 'perl', 'ruby'}
#: A line that is one inline code span (```fi_pingpong -p tcp```)
_SPAN_LINE = re.compile(r'^\s*(?:[-*+]\s+)?`([^`]+)`\s*$')
#: A console's prompt before a command (``$ ``, ``> ``, ``[user@host]$
#: ``; root's ``# `` where a program follows: :func:`_prompt`)
_PROMPT = re.compile(r'^\s*(?:\[[^\]]*\]\s*)?[$>#]\s+(?=\S)')
#: What follows root's ``# `` prompt (else the line is a comment)
_ROOT_RUNS = ('docker', 'podman', 'singularity', 'apptainer', 'sudo',
              'mpirun', 'mpiexec', 'srun', 'numactl', 'taskset', './')


def _prompt(line):
    '''The prompt before a line's command, or None.'''
    match = _PROMPT.match(line)
    if match is None:
        return None
    if match[0].rstrip().endswith('#'):
        rest = line[match.end():]
        if not (rest.startswith(_ROOT_RUNS) or
                tool_of(rest.split()[0].rsplit('/', 1)[-1])):
            return None
    return match


def is_markdown(name):
    return name.lower().endswith(('.md', '.markdown'))


def script_of(text):
    '''The text of the document's shell blocks as one script, each line on
    its own number (prose, fences and other blocks blank), or None where
    the document has no code block nor a line of code.'''
    lines = text.splitlines()
    out = [''] * len(lines)
    fence, shell, block, fenced = None, False, [], False
    for number, line in enumerate(lines):
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence, fenced = match[1], True
                shell = match[2].lower() not in NOT_SHELL
                block = []
                continue
            span = _SPAN_LINE.match(line)
            if span:                      # `ior -w ...` alone on its line
                out[number], fenced = span[1], True
            continue
        if match and match[1][0] == fence[0] and \
                len(match[1]) >= len(fence) and not match[2]:
            if shell:
                _keep(block, out)
            fence = None
            continue
        block.append((number, line))
    if fence is not None and shell:
        _keep(block, out)                 # a block the document leaves open
    return '\n'.join(out) + '\n' if fenced else None


def _keep(block, out):
    '''Copy a block's commands into ``out``: a console transcript's
    prompted lines (and their continuations), and the script a prompted
    ``cat job.sh`` shows; else every line.'''
    prompted = any(_prompt(line) for _, line in block)
    going_on = shown = False
    for number, line in block:
        if not prompted:
            out[number] = line
            continue
        prompt = _prompt(line)
        if prompt:
            shown = _SHOWS_SCRIPT.match(line[prompt.end():]) is not None
        if prompt or going_on:
            out[number] = line[prompt.end():] if prompt else line
            going_on = line.rstrip().endswith('\\')
        elif shown:
            out[number] = line      # the script, as the transcript shows it


#: A prompted command that shows a script (``cat ior_slurm.sh``): the
#: output lines after it, to the next prompt, are the script
_SHOWS_SCRIPT = re.compile(r'^\s*(?:cat|more|less|head -n ?\d+)\s+\S+\.'
                           r'(?:sh|bash|sbatch|slurm|pbs|qsub|lsf|bsub|job)'
                           r'\s*$')
