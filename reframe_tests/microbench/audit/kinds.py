'''What an input is, told from its name and text (:func:`kind_of`): the
vocabulary of a report's ``kind`` (:data:`INPUT_KINDS`), and the programs
of other languages the audit refuses.'''

import re

from microbench.audit import (batchjob, dockerfile, elbenchofile, fiojob,
                              io500, iorscript, markdown, reframecheck,
                              yamlfile)
from microbench.audit.findings import Unreadable


#: What the audit reads an input as (a report's ``kind``), with how it
#: tells
INPUT_KINDS = {
    'command': 'a command line (a file of one, or the audit\'s own '
               'arguments)',
    'fio': 'a fio job file (sections of name=value lines)',
    'script': 'a batch or shell script (its name, a #! line or a '
              'scheduler\'s directives), or a Makefile\'s recipes (each '
              'target a run)',
    'darshan': 'a Darshan log (its name or its header)',
    'io500': 'an IO500 configuration (a section only IO500 has)',
    'elbencho-config': 'an elbencho configuration file (name=value lines '
                       'of its long options)',
    'reframe-check': 'a ReFrame check (a .py file that imports ReFrame), '
                     'parsed, never imported',
    'ior-script': 'an IOR script (ior -f: directives between IOR START '
                  'and IOR STOP, a test at each RUN)',
    'yaml': 'a YAML file (its name: CI steps, Kubernetes or Flux Operator '
            'specs): each string value a command, or a script on several '
            'lines',
    'markdown': 'a Markdown document (its name): the commands of its code '
                'blocks (of a console transcript, its prompted lines), '
                'never its prose',
    'dockerfile': 'a Dockerfile (its name): what its RUN, CMD and '
                  'ENTRYPOINT run',
}
(COMMAND, FIO_JOB, SCRIPT, DARSHAN, IO500, ELBENCHO_CONFIG,
 REFRAME_CHECK, IOR_SCRIPT, YAML, MARKDOWN, DOCKERFILE) = INPUT_KINDS


#: The names of scripts
SCRIPT_EXTENSIONS = ('.sh', '.bash', '.ksh', '.zsh', '.slurm', '.pbs',
                     '.sbatch', '.lsf', '.bsub', '.qsub', '.job')


def kind_of(name, text):
    '''The :data:`INPUT_KINDS` word of a text input.'''
    stripped = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not stripped:
        raise Unreadable(f'{name}: empty: nothing to judge')
    if yamlfile.is_yaml(name):
        return YAML
    if dockerfile.is_dockerfile(name):
        return DOCKERFILE
    if markdown.is_markdown(name) and markdown.script_of(text) is not None:
        return MARKDOWN
    if name.endswith('.py') and reframecheck.is_check(text):
        return REFRAME_CHECK
    language = _program_language(name, stripped[0])
    if language:
        raise Unreadable(f'{name}: a {language} program, not a ReFrame '
                         f'check: the audit parses ReFrame checks and runs '
                         f'no {language}')
    if name.endswith('.job') and fiojob.is_job_text(stripped):
        return FIO_JOB               # fio.job: a job file, not a batch job
    if name.endswith(SCRIPT_EXTENSIONS) or _is_makefile(name) or \
            stripped[0].startswith('#!') or any(
            ln.startswith(batchjob.DIRECTIVES) for ln in stripped):
        return SCRIPT
    if iorscript.is_script(text):
        return IOR_SCRIPT
    if io500.is_config(text):
        return IO500
    if elbenchofile.is_config(text):
        return ELBENCHO_CONFIG
    sections = [ln for ln in stripped if ln.startswith('[')]
    if name.endswith('.fio') or (sections and re.match(r'^\[[^\]]*\]?$',
                                                       stripped[0])):
        return FIO_JOB
    if fiojob.is_job_text(stripped):
        return FIO_JOB
    return COMMAND


def _is_makefile(name):
    '''Whether a file is a Makefile (its name): its recipes are shell
    lines, each target's run once by ``make TARGET``.'''
    base = name.replace('\\', '/').rsplit('/', 1)[-1]
    return base in ('Makefile', 'makefile', 'GNUmakefile') or \
        base.endswith(('.mk', '-Makefile', '_Makefile'))


#: Programs of other languages than the shell's, by name or ``#!`` line
_LANGUAGES = {'.py': 'Python', '.pl': 'Perl', '.pm': 'Perl',
              '.rb': 'Ruby', '.go': 'Go', '.c': 'C', '.cc': 'C++',
              '.cpp': 'C++', '.java': 'Java',
              '.rs': 'Rust', '.js': 'JavaScript', '.ts': 'TypeScript',
              'python': 'Python', 'perl': 'Perl', 'ruby': 'Ruby',
              'node': 'JavaScript'}


def _program_language(name, first):
    '''The language of a program the audit does not read (its name's
    extension, or its ``#!`` line's interpreter), or None.'''
    for extension in (key for key in _LANGUAGES if key.startswith('.')):
        if name.endswith(extension):
            return _LANGUAGES[extension]
    if first.startswith('#!'):
        words = first[2:].split()
        if words and words[0].endswith('/env'):
            words = [w for w in words[1:] if not w.startswith('-')]
        if words:
            interpreter = re.sub(r'[\d.]+$', '', words[0].rsplit('/', 1)[-1])
            return _LANGUAGES.get(interpreter)
    return None
