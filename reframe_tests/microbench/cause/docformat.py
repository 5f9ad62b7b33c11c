'''What the cause's documents (:mod:`.ab_json`, :mod:`.bisect_json`,
:mod:`.diagnosis_json`) check alike when they read one back: its head
(an object, no NaN or infinity, its format and version), the kinds of its
members, and the one-line error that names the file and the member.

Each format keeps its own module (what it writes, its version, its
rules); this module holds only the checks they share, so that a message
reads the same whichever document was wrong.'''

import io
import json
import os

from microbench.verdicts import compare_json

#: The longest document any of them reads (bytes): far above any written
LONGEST = 64 * 1024 * 1024


class FormatError(ValueError):
    '''A document that is not one of its format and version (one line).'''


def shown(value, longest=60):
    '''``value`` as one short line of a message (``repr`` escapes
    control characters).'''
    text = repr(value)
    return text if len(text) <= longest else f'{text[:longest - 3]}...'


def fail(path, member, value, what):
    raise FormatError(f'{path}: {member} is {shown(value)}, {what}')


def members(item, spec, path, member):
    '''Check ``item`` (the member named ``member``; '' for the document)
    has every member of ``spec``, each of its kind.'''
    if not isinstance(item, dict):
        fail(path, member or 'the document', item, 'not an object')
    prefix = f'{member}.' if member else ''
    for name, kind in spec.items():
        if name not in item:
            raise FormatError(f'{path}: {member or "the document"} has no '
                              f'member {name!r}')
        if not compare_json.kind_ok(item[name], kind):
            fail(path, prefix + name, item[name],
                 f'not {compare_json.WORDS[kind.rstrip("?")]}'
                 + (' or null' if kind.endswith('?') else ''))


def texts(items, path, member):
    for index, item in enumerate(items):
        if not isinstance(item, str):
            fail(path, f'{member}[{index}]', item, 'not a text')


def one_of(value, words, path, member):
    if isinstance(value, bool) or value not in words:
        fail(path, member, value, f'not one of {", ".join(map(str, words))}')


def count(value, path, member):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        fail(path, member, value, 'not a count')


def head(doc, path, name, version):
    '''Raise :class:`FormatError` unless ``doc`` is an object of the
    format ``name`` at ``version`` holding no number JSON cannot say.'''
    if not isinstance(doc, dict):
        raise FormatError(f'{path}: not the JSON of {name} (not an '
                          f'object)')
    found = compare_json.not_written(doc)
    if found is not None:
        member, value = found
        raise FormatError(f'{path}: {member[:120]} is {value!r}: {name} '
                          f'writes null where there is no number, never '
                          f'NaN, an infinity or a number beyond a float\'s '
                          f'range')
    if doc.get('format') != name:
        raise FormatError(f'{path}: not the JSON of {name} (no format: '
                          f'{name!r} member)')
    if doc.get('version') != version:
        raise FormatError(f'{path}: the JSON of {name} version '
                          f'{shown(doc.get("version"))}; this microbench '
                          f'reads version {version}')


def load(path, name, longest=LONGEST):
    '''The JSON at ``path`` (at most ``longest`` bytes of UTF-8), not yet
    validated.

    :raises FormatError: it is too long, not UTF-8 or not JSON.
    :raises OSError: it cannot be read.'''
    with open(path, 'rb') as fp:
        data = fp.read(longest + 1)
    if len(data) > longest:
        raise FormatError(f'{path}: more than {longest} bytes: not the '
                          f'JSON of {name}')
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as err:
        raise FormatError(f'{path}: not UTF-8 (byte {err.start}): not the '
                          f'JSON of {name}') from None
    try:
        return compare_json.load(io.StringIO(text))
    except (ValueError, RecursionError) as err:
        raise FormatError(f'{path}: not JSON ({str(err)[:200]})') from None


def read(path, name, validate, longest=LONGEST):
    '''The document at ``path``, loaded (:func:`load`) and held to its
    format by ``validate(doc, path)`` (a dict).

    :raises FormatError: it is not one of its format and version.
    :raises OSError: it cannot be read.'''
    doc = load(path, name, longest)
    validate(doc, path)
    return doc


def write_whole(path, doc):
    '''Write ``doc`` (JSON, no NaN) to ``path`` whole: to a file beside
    it, then renamed over it; ``path``.'''
    tmp = f'{path}.tmp{os.getpid()}'
    try:
        with open(tmp, 'w', encoding='utf-8') as out:
            out.write(json.dumps(doc, indent=1, allow_nan=False,
                                 ensure_ascii=False) + '\n')
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
