'''The machine's settings below the kernel release, in every record.

Most changes that move an I/O figure are no package, no kernel release
and no mount option: the block queue's ``read_ahead_kb``, its scheduler,
``vm.dirty_ratio``, transparent huge pages, the CPU governor, a device's
or a NIC's firmware and driver, a Lustre client's tunables.  Every rounds
job records them on every node the benchmark runs on (the node script
``microbench/suite/settings.sh``, which names each setting;
:func:`command`), once before the rounds, as the ``settings`` record::

    <node> <key>=<value>;<key>=<value>;...[|<node> ...]

and its checks keep them in the ``machine_settings`` field
(:func:`field_text`): ``<key>=<value>`` joined by ``;``, one value per
key where every node agrees, else ``<key>@<node>=<value>`` for each node.
The field is a *machine* field (:data:`microbench.fields.MACHINE`): where
it differs around a change, :func:`differences` names each key that
changed, ``block.vda.read_ahead_kb 128 -> 4096``, and the event says it.

A setting's file that is missing or unreadable is recorded as
``missing`` or ``unreadable``: a value like any other, so a device that
disappears is a changed key, never a crash.  A record that is not this
format (an edited or truncated job output) keeps what of it reads and
leaves the rest out.  Records made before settings were recorded have
none: no key is said to change against them.
'''

import os
import shlex

from microbench import paths
# AT: between a key and the node its value is of, where nodes differ
from microbench.codecs import AT, Pairs, Text

#: The record of every node's settings
RECORD = 'settings'

#: The codec of the ``machine_settings`` field
CODEC = Pairs('machine_settings', Text())

#: Between the nodes of the record; between a node's name and its settings
NODES, NODE = '|', ' '

#: The name a difference of one setting has among a record's differences
#: (:func:`microbench.fields.differences`): ``setting <key>``
PREFIX = 'setting '


def command(start, stagedir, scratch='$scratch'):
    '''The shell command printing the record: ``start`` (a launcher prefix
    starting one process on every node, or '' for the job's node alone)
    runs the node script, which every rounds job copies into its stage
    directory ``stagedir``, over the ``scratch`` directory (its block
    device's settings; '' for none).'''
    script = shlex.quote(os.path.join(stagedir,
                                      os.path.basename(paths.SETTINGS)))
    where = f'"{scratch}"' if scratch else "''"
    line = ' '.join(filter(None, [start, 'bash', script, where]))
    return f"{line} | paste -sd '{NODES}' -" if start else line


def parse(text):
    '''``{node: {key: value}}`` of a ``settings`` record; a part that is
    not ``<node> <pairs>`` is left out, as is a pair that is not
    ``<key>=<value>``.'''
    found = {}
    for part in str(text or '').split(NODES):
        node, _, pairs = part.strip().partition(NODE)
        values = CODEC.read(pairs)
        if node and values:
            found.setdefault(node, {}).update(values)
    return found


def field_text(per_node):
    '''The ``machine_settings`` field of ``per_node`` (``{node: {key:
    value}}``): a key every node gives one value once, else once per
    node (``key@node``); '' for no node.'''
    keys = sorted({key for values in per_node.values() for key in values})
    out = {}
    for key in keys:
        given = {node: values.get(key, 'missing')
                 for node, values in sorted(per_node.items())}
        if len(set(given.values())) == 1:
            out[key] = next(iter(given.values()))
        else:
            out.update({f'{key}{AT}{node}': value
                        for node, value in given.items()})
    return CODEC.encode(out)


def of_record(text):
    '''The ``machine_settings`` field of a ``settings`` record.'''
    return field_text(parse(text))


def keyed(texts):
    '''``{key: sorted values}`` of the ``machine_settings`` field texts of
    some records (one side of a change).'''
    found = {}
    for text in texts:
        for key, value in CODEC.read(text).items():
            found.setdefault(key, set()).add(value)
    return {key: sorted(values) for key, values in found.items()}


def differences(before, after):
    '''``{'setting <key>': (values before, values after)}`` of every key
    whose values differ between two sides' ``machine_settings`` texts; {}
    where a side recorded none (records made before the field).'''
    lhs, rhs = keyed(before), keyed(after)
    if not lhs or not rhs:
        return {}
    return {f'{PREFIX}{key}': (lhs.get(key, []), rhs.get(key, []))
            for key in sorted(set(lhs) | set(rhs))
            if lhs.get(key, []) != rhs.get(key, [])}


#: The longest value said whole; a longer one (the kernel command line)
#: is said by the words it lost and gained
LONG = 40


def _change(lhs, rhs):
    '''``128 -> 4096``, or ``-quiet +mitigations=off`` of long values.'''
    before, after = ','.join(lhs) or 'none', ','.join(rhs) or 'none'
    if max(len(before), len(after)) <= LONG:
        return f'{before} -> {after}'
    old, new = before.split(), after.split()
    lost = [f'-{word}' for word in old if word not in new]
    gained = [f'+{word}' for word in new if word not in old]
    return ' '.join(lost + gained) or 'the same words, reordered'


def said(differences):
    '''``block.vda.read_ahead_kb 128 -> 4096`` of every changed setting
    among ``differences`` (``{name: (before, after)}`` or ``{name:
    {before, after}}``), in key order.'''
    out = []
    for name, diff in sorted(differences.items()):
        if not name.startswith(PREFIX):
            continue
        lhs, rhs = (diff['before'], diff['after']) if isinstance(
            diff, dict) else diff
        out.append(f'{name[len(PREFIX):]} {_change(lhs, rhs)}')
    return out
