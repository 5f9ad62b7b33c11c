'''The audit's reports as text (people), JSON (scripts) and SARIF 2.1.0
(code-scanning tools: a repository of benchmark scripts sees each finding
on the line that holds it).'''

import json
import textwrap
import urllib.parse

from microbench.audit.bounds import clipped
from microbench.audit.findings import CATALOGUE, CERTAIN
from microbench.audit.kinds import FIO_JOB

#: The JSON format's name and version
FORMAT, VERSION = 'microbench audit', 1

#: The SARIF schema the output follows (OASIS, errata 01)
SARIF_SCHEMA = ('https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/'
                'os/schemas/sarif-schema-2.1.0.json')

_WIDTH = 79


def exit_code(reports):
    '''2 where an input could not be read, else 1 on any finding, else 0.'''
    if any(report.error for report in reports):
        return 2
    return 1 if any(report.findings for report in reports) else 0


def _wrap(label, text, indent):
    prefix = ' ' * indent + f'{label}: '
    lines = text.splitlines() or ['']
    if len(lines) > 1:
        body = textwrap.indent('\n'.join(lines), ' ' * (indent + 4))
        return f'{prefix.rstrip()}\n{body}'
    return textwrap.fill(text, _WIDTH, initial_indent=prefix,
                         subsequent_indent=' ' * (indent + 4),
                         break_long_words=False, break_on_hyphens=False)


def text(reports):
    '''The reports as text, a block per input.'''
    out = []
    for report in reports:
        if report.error:
            out.append(f'{report.name}: unreadable: {report.error}')
            continue
        if report.note:
            out.append(f'{report.name}: clean: {report.note}')
            continue
        if not report.findings:
            judged = ', '.join(sorted({i.tool for i in report.invocations}))
            out.append(f'{report.name}: clean: no pitfall of the catalogue '
                       f'found ({len(report.invocations)} invocation'
                       f'{"s" if len(report.invocations) != 1 else ""} of '
                       f'{judged} judged)')
        for invocation in report.invocations:
            out.extend(_invocation(report, invocation))
        for said in report.not_read:
            out.append(_wrap(f'{report.name}: not read', said, 0))
    return '\n'.join(out) + '\n'


def _invocation(report, invocation):
    where = invocation.where
    head = f'{where}: {invocation.tool}'
    lines = [head + (f': {clipped(where.text)}' if where.text and
                     report.kind != FIO_JOB else '')]
    for finding in invocation.findings:
        entry = finding.entry
        sure = (CERTAIN if finding.certainty == CERTAIN
                else 'conditional')
        lines.append(f'  {finding.pitfall} {entry.title} [{sure}]')
        if finding.where.line and finding.where != where:
            lines.append(_wrap('at', f'{finding.where}: '
                               f'{clipped(finding.where.text.strip())}', 5))
        lines.append(_wrap('evidence', finding.evidence, 5))
        lines.append(_wrap('why', finding.why, 5))
        if finding.certainty != CERTAIN:
            lines.append(_wrap('how sure', finding.certainty, 5))
        if finding.realistic and report.kind != FIO_JOB:
            lines.append(_wrap('realistic', finding.realistic, 5))
        if finding.note:
            lines.append(_wrap('note', finding.note, 5))
        if finding.check:
            lines.append(_wrap('measured by', f'{finding.check} (gap '
                               f'{finding.gap})', 5))
    for said in invocation.not_judged:
        lines.append(_wrap('not judged', said, 2))
    for said in invocation.unseen:
        lines.append(_wrap('Darshan cannot see', said, 2))
    if invocation.realistic and invocation.findings:
        lines.append(_wrap('realistic form', invocation.realistic, 2))
    return lines


def as_json(reports):
    '''The reports as one JSON document; an invocation's ``text`` (its
    line) cut to :data:`~.bounds.LINE_CHARS`, as in the text.'''
    inputs = [r.as_dict() for r in reports]
    for report in inputs:
        for invocation in report['invocations']:
            invocation['text'] = clipped(invocation['text'])
    return json.dumps({'format': FORMAT, 'version': VERSION,
                       'exit': exit_code(reports), 'inputs': inputs},
                      indent=2) + '\n'


def _uri(name):
    return urllib.parse.quote(name)


def _is_file(report):
    return report.name not in ('argv', '-')


def sarif(reports, version):
    '''The reports as one SARIF 2.1.0 log.'''
    rules = [{'id': entry.id, 'name': entry.title,
              'shortDescription': {'text': entry.title},
              'fullDescription': {'text': entry.why},
              'properties': {'check': entry.check, 'gap': entry.gap}}
             for entry in CATALOGUE.values()]
    index = {rule['id']: number for number, rule in enumerate(rules)}
    results, notes = [], []
    for report in reports:
        if report.error:
            notes.append({'level': 'error',
                          'message': {'text': report.error}})
            continue
        for said in report.not_read:
            notes.append({'level': 'warning', 'message': {'text': said}})
        for invocation in report.invocations:
            for finding in invocation.findings:
                results.append(_result(report, finding, index))
    run = {
        'tool': {'driver': {
            'name': 'microbench audit', 'version': version,
            'rules': rules}},
        'results': results,
        'invocations': [{'executionSuccessful': not any(
            note['level'] == 'error' for note in notes),
                         'toolExecutionNotifications': notes}],
    }
    return json.dumps({'$schema': SARIF_SCHEMA, 'version': '2.1.0',
                       'runs': [run]}, indent=2) + '\n'


def _result(report, finding, index):
    sure = finding.certainty == CERTAIN
    message = (f'{finding.pitfall}: {finding.evidence}. '
               f'{finding.certainty[0].upper()}{finding.certainty[1:]}.')
    result = {'ruleId': finding.pitfall, 'ruleIndex': index[finding.pitfall],
              'level': 'warning' if sure else 'note',
              'message': {'text': message},
              'properties': {'certainty': finding.certainty,
                             'realistic': finding.realistic,
                             'note': finding.note}}
    if _is_file(report):
        location = {'physicalLocation': {
            'artifactLocation': {'uri': _uri(finding.where.file)}}}
        if finding.where.line:
            location['physicalLocation']['region'] = {
                'startLine': finding.where.line}
        result['locations'] = [location]
    return result
