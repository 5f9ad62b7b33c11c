'''Reference files: where a figure's reference lives, and writing one.

The committed references are ``reframe_tests/references/<tool>.yaml``
(ReFrame 4.10 external references): per check, per partition, per knob
value (``$index``), per figure, ``[value, lower, upper, unit]``.  A
baseline of a facility partition is written there, as a diff to review:
:func:`set_entry` edits the text of the file in place (the entry's span, as
PyYAML's composer locates it), so comments and layout stay.

A machine without a facility entry (the local default, a laptop) keeps its
references in a user-owned file, ``$MICROBENCH_REFERENCES`` (default
``~/.config/microbench/references.yaml``), of the same shape without
``$index``.  Where it exists, systems/config.py points ReFrame's
``reference_prefix`` at :func:`merged`: the committed files with the user's
entries laid over them, written where they change when the configuration
is loaded.

This module imports nothing of ReFrame: the configuration reads it.
'''

import glob
import os

import yaml

from microbench import paths

COMMITTED = paths.REFERENCES


def user_file():
    '''The user-owned references file.'''
    return os.path.expanduser(os.environ.get(
        'MICROBENCH_REFERENCES', '~/.config/microbench/references.yaml'
    ))


def committed_files():
    return sorted(glob.glob(os.path.join(COMMITTED, '*.yaml')))


def load(path):
    with open(path) as fp:
        return yaml.safe_load(fp) or {}


def file_of(check):
    '''The committed file that holds ``check``'s references, or None.'''
    for path in committed_files():
        if check in load(path):
            return path

    return None


def facility(partition):
    '''Whether ``partition`` has a reference value in the committed files
    (beyond the direction of a gap): its baseline goes there.'''
    def values(node):
        if isinstance(node, list):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from values(v)

    for path in committed_files():
        for entry in load(path).values():
            for ref in values(entry.get(partition, {})):
                if not (ref[0] == 1.0 and ref[-1] == 'x'):
                    return True

    return False


def entry_path(refs, check, partition, variant, figure):
    '''The keys from the top of a references file down to one figure (a
    check without ``$index``, a gap, has no knob level).'''
    index = refs.get(check, {}).get('$index')
    knobs = variant.split('.') if index else []
    if index and len(knobs) != len(index) - 1:
        raise ValueError(f'{check}: variant {variant!r} does not match '
                         f'its index {index}')

    return [check, partition, *knobs, figure]


def _flow(value):
    return yaml.safe_dump(value, default_flow_style=True,
                          width=1000).strip().removesuffix('...').strip()


def _child(node, key):
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key:
                return v

    return None


def _line_end(text, index):
    end = text.find('\n', index)
    return len(text) if end < 0 else end


def set_entry(text, path, entry, tail=2):
    '''``text`` (a YAML document) with the entry at ``path`` set to
    ``entry``: an existing entry's span is replaced; a missing one is
    added under the deepest mapping that exists, its last ``tail`` keys on
    one line (``direct: {write_median_mib_s: [...]}``, or with 1, a gap's
    ``buffered_over_direct: [...]``), the keys before them as blocks.'''
    node, depth = yaml.compose(text), 0
    while node is not None and depth < len(path):
        child = _child(node, path[depth])
        if child is None:
            break
        node, depth = child, depth + 1

    if depth == len(path):
        start, end = node.start_mark.index, node.end_mark.index
        return text[:start] + _flow(entry) + text[end:]

    rest = path[depth:]
    if node is not None and node.flow_style:
        leaf = entry
        for key in reversed(rest):
            leaf = {key: leaf}
        close = node.end_mark.index - 1
        sep = ', ' if node.value else ''
        return text[:close] + sep + _flow(leaf)[1:-1] + text[close:]

    # A block mapping (or an empty document): new lines after its last
    # entry
    if node is None:
        indent, at = 0, len(text.rstrip('\n'))
    else:
        indent = node.value[0][0].start_mark.column
        at = _line_end(text, _last_end(node) - 1)
    lines = []
    tail = max(min(tail, len(rest)), 1)
    for key in rest[:-tail]:
        lines.append(' ' * indent + f'{key}:')
        indent += 2
    value = entry
    for key in reversed(rest[1 - tail:] if tail > 1 else []):
        value = {key: value}
    lines.append(' ' * indent + f'{rest[-tail]}: {_flow(value)}')
    new = '\n'.join(lines)
    if at:
        new = '\n' + new
    out = text[:at] + new + text[at:]
    return out if out.endswith('\n') else out + '\n'


def _last_end(node):
    '''Where the last entry of a block mapping ends (not the comments
    and blank lines after it).'''
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) \
            and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last

    return node.end_mark.index


def _deep_merge(base, over):
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value

    return out


def merged():
    '''The reference prefix that lays the user's entries over the
    committed files (``<prefix>/references/<tool>.yaml``), or None where
    the user has no file.  A merged file is written only where its text
    changes: loading the configuration again writes nothing.'''
    path = user_file()
    if not os.path.isfile(path):
        return None

    user = load(path)
    prefix = os.path.splitext(path)[0] + '.merged'
    for source in committed_files():
        refs = load(source)
        for check, entry in user.items():
            if check in refs:
                refs[check] = _deep_merge(refs[check], entry)

        target = os.path.join(prefix, 'references',
                              os.path.basename(source))
        write_if_changed(target, yaml.safe_dump(refs, sort_keys=False))

    return prefix


def write_if_changed(path, text):
    '''Make ``path`` hold ``text`` (atomically), unless it does.'''
    try:
        with open(path) as fp:
            if fp.read() == text:
                return
    except OSError:
        os.makedirs(os.path.dirname(path), exist_ok=True)

    with open(path + '.tmp', 'w') as fp:
        fp.write(text)
    os.replace(path + '.tmp', path)
