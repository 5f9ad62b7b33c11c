'''The forms file: what ``microbench audit --measure`` (:mod:`.measure`)
hands the check that measures a finding
(``reframe_tests/audit_checks/audit_forms.py``): the user's form and the
realistic form of one invocation, the gap to report, and the settings of
the tool's rounds, as data.  JSON, versioned, written and read here
only, validated on load; the check finds it through the environment
(:data:`ENV`) and registers nothing without one.

    {"format": "microbench audit forms", "version": 1, "tool": "fio",
     "check": "fio_cache_flags", "gap": "buffered_over_direct",
     "forms": {"yours": {...fio options...}, "realistic": {...}},
     "fio": {"page_cache_variants": ["yours"], "overwrite_variants": [],
             "witness_syscall": null, "runtime_s": 0, "block_size": "4k",
             "darshan": [], "filename": "", "judge_overwrite": true}}

An IOR file has ``"tool": "ior"``, its forms IOR's arguments (lists of
texts, without ``-o``) and ``"ior": {"tasks_per_node": 1, "figure":
"read"}``.
'''

import json
import math

FORMAT = 'microbench audit forms'
VERSION = 1

#: The environment variable that names the forms file of a run
ENV = 'MICROBENCH_AUDIT_FORMS'

#: The longest forms file read (bytes): far above any written
LONGEST = 1024 * 1024

#: The forms, in the order of the check's rounds
FORMS = ('yours', 'realistic')

#: Each tool's own member: {name: (kind, what it must be)}
SETTINGS = {
    'fio': {'page_cache_variants': 'forms', 'overwrite_variants': 'forms',
            'witness_syscall': 'text?', 'runtime_s': 'count',
            'block_size': 'text', 'darshan': 'texts', 'filename': 'text',
            'judge_overwrite': 'bool'},
    'ior': {'tasks_per_node': 'positive', 'figure': 'figure'},
}

#: IOR's figures a gap compares
FIGURES = ('read', 'write')


class FormsError(ValueError):
    '''A forms file that is not one of this version (one line).'''


def _shown(value):
    text = repr(value)
    return text if len(text) <= 60 else f'{text[:57]}...'


def _fail(path, member, value, what):
    raise FormsError(f'{path}: {member} is {_shown(value)}, {what}')


def _text(value):
    return isinstance(value, str) and '\0' not in value


def _scalar(value):
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int))


#: What each kind accepts, and how a message says it
_KINDS = {
    'text': (_text, 'not a text'),
    'text?': (lambda v: v is None or _text(v), 'not a text or null'),
    'texts': (lambda v: isinstance(v, list) and all(map(_text, v)),
              'not a list of texts'),
    'forms': (lambda v: isinstance(v, list) and all(f in FORMS for f in v),
              f'not a list of {" and ".join(FORMS)}'),
    'count': (lambda v: isinstance(v, int) and not isinstance(v, bool)
              and v >= 0, 'not a count'),
    'positive': (lambda v: isinstance(v, int) and not isinstance(v, bool)
                 and v > 0, 'not a positive integer'),
    'bool': (lambda v: isinstance(v, bool), 'not true or false'),
    'figure': (lambda v: v in FIGURES, f'not one of {", ".join(FIGURES)}'),
}


def _form(tool, form, path, member):
    if tool == 'fio':
        if not isinstance(form, dict) or not all(
                _text(k) and _scalar(v) for k, v in form.items()):
            _fail(path, member, form, 'not an object of fio options')
    elif not isinstance(form, list) or not all(map(_text, form)):
        _fail(path, member, form, 'not a list of IOR arguments')


def validate(doc, path):
    '''Raise :class:`FormsError` unless ``doc`` is a forms file of this
    version.'''
    if not isinstance(doc, dict):
        raise FormsError(f'{path}: not the JSON of {FORMAT} (not an object)')
    if doc.get('format') != FORMAT:
        raise FormsError(f'{path}: not the JSON of {FORMAT} (no format: '
                         f'{FORMAT!r} member)')
    if doc.get('version') != VERSION:
        raise FormsError(f'{path}: the JSON of {FORMAT} version '
                         f'{_shown(doc.get("version"))}; this microbench '
                         f'reads version {VERSION}')
    tool = doc.get('tool')
    if tool not in SETTINGS:
        _fail(path, 'tool', tool, f'not one of {", ".join(SETTINGS)}')
    for member in ('check', 'gap'):
        if not _text(doc.get(member)) or not doc.get(member):
            _fail(path, member, doc.get(member), 'not a text')
    forms = doc.get('forms')
    if not isinstance(forms, dict) or sorted(forms) != sorted(FORMS):
        _fail(path, 'forms', forms, f'not an object of {" and ".join(FORMS)}')
    for name in FORMS:
        _form(tool, forms[name], path, f'forms.{name}')
    settings = doc.get(tool)
    if not isinstance(settings, dict):
        _fail(path, tool, settings, 'not an object')
    for name, kind in SETTINGS[tool].items():
        if name not in settings:
            raise FormsError(f'{path}: {tool} has no member {name!r}')
        accepts, what = _KINDS[kind]
        if not accepts(settings[name]):
            _fail(path, f'{tool}.{name}', settings[name], what)
    unknown = sorted(set(doc) - {'format', 'version', 'tool', 'check',
                                 'gap', 'forms', tool})
    if unknown:
        raise FormsError(f'{path}: unknown member {_shown(unknown[0])}')


def document(tool, check, gap, forms, settings):
    '''A forms file's document, validated.'''
    doc = {'format': FORMAT, 'version': VERSION, 'tool': tool,
           'check': check, 'gap': gap, 'forms': forms, tool: settings}
    validate(json.loads(json.dumps(doc)), '(the forms written)')
    return doc


def write(path, doc):
    validate(doc, path)
    with open(path, 'w', encoding='utf-8') as fp:
        json.dump(doc, fp, indent=1, allow_nan=False)
        fp.write('\n')


def read(path):
    '''The forms file at ``path``, validated.

    :raises FormsError: it is not one (one line).
    :raises OSError: it cannot be read.'''
    with open(path, 'rb') as fp:
        data = fp.read(LONGEST + 1)
    if len(data) > LONGEST:
        raise FormsError(f'{path}: more than {LONGEST} bytes: not the JSON '
                         f'of {FORMAT}')
    try:
        doc = json.loads(data.decode('utf-8'), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise FormsError(f'{path}: not JSON ({str(err)[:200]})') from None
    validate(doc, path)
    return doc


def _no_constant(name):
    raise ValueError(f'{name} is no JSON number')


def from_environment(environ):
    '''The forms file the environment names (:data:`ENV`), or ``None``
    where it names none.'''
    path = environ.get(ENV)
    return read(path) if path else None
