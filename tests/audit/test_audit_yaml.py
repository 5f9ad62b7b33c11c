'''YAML files read for their commands (microbench/audit/yamlfile.py):
garbage is one line of refusal, an alias is walked once, nesting past
what PyYAML composes is refused, never a traceback.  The real files are
in the probe sets (tests/audit/test_audit_probe3.py).'''

import os

import yaml

from microbench.audit import judge, yamlfile

import fixtures

GIB = 2**30


def audited(name, text):
    return judge.audit_bytes(name, text.encode(),
                             judge.new_context(name, 24 * GIB))


def test_an_alias_bomb_is_its_text_not_its_expansion():
    lines = ['script:', '  a0: &a0 ["fio --name=t --rw=write --size=1g"]']
    for level in range(1, 60):
        lines.append(f'  a{level}: &a{level} [' + ', '.join(
            [f'*a{level - 1}'] * 9) + ']')
    report = audited('bomb.yaml', '\n'.join(lines) + '\n')
    assert report.error is None
    assert len(report.invocations) == 1       # 9**59 if expanded


def test_yaml_pyyaml_refuses_is_refused_in_one_line():
    report = audited('tab.yaml', 'a:\n\t- fio --name=x --rw=write\n')
    assert report.error.startswith('tab.yaml: not YAML that PyYAML reads')
    assert '\n' not in report.error


def test_nesting_past_the_python_composer_is_refused(monkeypatch):
    monkeypatch.setattr(yamlfile, '_LOADER', yaml.SafeLoader)
    report = audited('deep.yaml', '[' * 20000 + ']' * 20000 + '\n')
    assert 'nested deeper than PyYAML composes' in report.error


def test_keys_are_names_and_numbers_are_not_commands():
    report = audited('keys.yaml', 'osu_latency:\n  iterations: 1000\n'
                                  'fio: 3\nname: fio\n')
    assert 'none of whose values runs a benchmark' in report.error


def test_only_the_values_a_tool_runs_are_commands():
    report = audited('steps.yaml', 'description: fio --name=x --rw=write\n'
                                   'steps:\n  - run: fio --name=y --rw=read'
                                   ' --size=1g\n')
    (invocation,) = report.invocations
    assert invocation.where.line == 3


def probe4(name):
    path = os.path.join(fixtures.path('audit'), 'probe4', name)
    with open(path) as fp:
        return path, fp.read()


def test_a_yaml_document_in_a_string_is_read_where_it_is():
    # IBM's cpe-operator: an MPIJob's spec in `benchmarkSpec: |`
    path, text = probe4('cpe_mpilat_osu.yaml')
    report = audited(path, text)
    (invocation,) = report.invocations
    assert invocation.where.line == 22               # its `- mpirun`
    assert text.splitlines()[21].strip() == '- mpirun'
    assert 'osu_latency' in invocation.where.text
    assert {f.pitfall for f in invocation.findings} >= {'N1'}
    # a string that is not YAML stays a string: nothing runs
    broken = text.replace('mpiReplicaSpecs:', 'mpiReplicaSpecs: [')
    assert audited(path, broken).error is not None


def test_a_string_in_a_string_in_a_string_is_read_two_levels_deep():
    def spec(inner, indent):
        pad = ' ' * indent
        return 'spec: |\n' + ''.join(f'{pad}{line}\n'
                                      for line in inner.splitlines())
    job = ('containers:\n- image: x\n  command: [mpirun, -np, "2", '
           'osu_bw]\n')
    two = spec(spec(job, 2), 2)
    assert len(audited('two.yaml', two).invocations) == 1
    three = spec(two, 2)
    assert audited('three.yaml', three).error is not None
