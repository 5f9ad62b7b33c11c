'''The alerting that ships with ``microbench export``: the Prometheus rules
(ci/prometheus/microbench-rules.yml) checked by Debian's ``promtool check
rules`` and run against their unit tests (``promtool test rules``
ci/prometheus/microbench-rules.test.yml: each rule firing and not firing),
and the Alertmanager configuration (ci/prometheus/alertmanager.yml)
checked by ``amtool check-config``.  Each is skipped, saying which Debian
package is missing, where its program is not installed.  End to end,
through a real Prometheus and Alertmanager: tests/e2e/test_e2e_alerts.py.
'''

import os
import shutil
import subprocess

import pytest
import yaml

import project

HERE = os.path.join(project.ROOT, 'ci', 'prometheus')
RULES = os.path.join(HERE, 'microbench-rules.yml')
RULE_TESTS = os.path.join(HERE, 'microbench-rules.test.yml')
ALERTMANAGER = os.path.join(HERE, 'alertmanager.yml')

#: The alerts the rules define, and the severity of each
ALERTS = {'MicrobenchRegression': 'page',
          'MicrobenchShareBelowFloor': 'ticket',
          'MicrobenchNightMissing': 'ticket',
          'MicrobenchNodeSlow': 'ticket'}

needs_promtool = pytest.mark.skipif(
    shutil.which('promtool') is None, reason='promtool is not installed '
    '(Debian package prometheus)')
needs_amtool = pytest.mark.skipif(
    shutil.which('amtool') is None, reason='amtool is not installed '
    '(Debian package prometheus-alertmanager)')


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, timeout=60,
                          cwd=project.ROOT)


@needs_promtool
def test_the_rules_are_valid():
    proc = run('promtool', 'check', 'rules', RULES)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f'SUCCESS: {len(ALERTS)} rules found' in proc.stdout


@needs_promtool
def test_the_rules_pass_their_unit_tests():
    proc = run('promtool', 'test', 'rules', RULE_TESTS)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 'SUCCESS' in proc.stdout


def test_the_unit_tests_test_every_rule():
    '''Each alert is evaluated by the unit tests, firing and not firing.'''
    with open(RULES) as fp:
        rules = yaml.safe_load(fp)
    with open(RULE_TESTS) as fp:
        tests = yaml.safe_load(fp)
    group, = rules['groups']
    assert {r['alert']: r['labels']['severity']
            for r in group['rules']} == ALERTS
    fired, silent = set(), set()
    for test in tests['tests']:
        for case in test['alert_rule_test']:
            (fired if case['exp_alerts'] else silent).add(case['alertname'])
    assert fired == silent == set(ALERTS)


@needs_amtool
def test_the_alertmanager_configuration_is_valid():
    proc = run('amtool', 'check-config', ALERTMANAGER)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 'SUCCESS' in proc.stdout and '1 inhibit rules' in proc.stdout
