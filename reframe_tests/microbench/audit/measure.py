'''``microbench audit --measure``: the user's form and the realistic form,
round-robin, through the suite's own rounds.

For a finding whose check the tool can run here (fio's S1, S2, S3; IOR's
S4 on one node), it writes the two forms and the gap as data (a forms
file, :mod:`.formsfile`) and runs ``reframe`` on the check file of the
measured forms (``reframe_tests/audit_checks/audit_forms.py``): the
tool's classes in the suite (its rounds fixture with two variants,
``yours`` and ``realistic``; its variant check; a ``GapCheck`` named for
the matching check's gap), the same job skeleton, lock, scratch directory
and cleanup, witnesses and validation as the check's.  What is measured
is chosen from the finding's structured members (its check, its
``measure``), never from its prose.  It prints the gap as the check reports it:
the ratio of the medians, every round's ratio and every sample.

It runs on ``local:default`` (this machine), never on a facility
partition unless ``--partition`` asks for one.
'''

import json
import os
import shutil
import subprocess
import sys
import tempfile

from microbench import fields, knobs, paths
from microbench.audit import fiojob, formsfile, getopt, options, words
from microbench.audit.iorargs import NO_ODIRECT_APIS

#: The checks ``--measure`` knows how to pair, by tool
MEASURED = {'fio': ('fio_cache_flags', 'fio_fallocate',
                    'fio_time_based_overwrite'),
            'IOR': ('ior_page_cache',)}

#: -S settings that change the forms themselves (not ReFrame variables)
FORM_SETTINGS = ('large_file_size', 'file_size', 'runtime_s')

#: fio options a measured form leaves out: where it writes (the job's
#: scratch), and its output (the rounds' JSON)
_FIO_DROPPED = ('directory', 'filename', 'output', 'output-format',
                'write_bw_log', 'write_lat_log', 'write_iops_log',
                'write_hist_log', 'opendir')

def _fio_form(job, fix):
    '''The options of a fio job (its settings, last one wins) with
    ``fix`` applied; where it writes and its output left out.'''
    form = {}
    for option in job.settings:
        name = fiojob.canonical(option.name)
        if name in _FIO_DROPPED:
            continue
        if name in ('direct', 'buffered'):
            on = fiojob.truth(option.value)
            form.pop('buffered', None)
            form['direct'] = int(on if name == 'direct' else not on)
            continue
        form[name] = option.value
    for name, value in fix.items():
        if value is None:
            form.pop(name, None)
        else:
            form[name] = value or None
    return form


def plan(report, finding, settings):
    '''(tool, forms file document, the forms) of one finding, or a string
    saying why it cannot be measured here.'''
    check = finding.check
    invocation = next(i for i in report.invocations if finding in i.findings)
    if invocation.tool == 'fio' and check in MEASURED['fio']:
        if shutil.which('fio') is None:
            return 'fio is not installed here (not on PATH)'
        job = finding.job
        if job is None:
            return 'the job of this finding is not known'
        fix = dict(finding.fix)
        if 'size' in fix and 'large_file_size' in settings:
            fix['size'] = settings['large_file_size']
        forms = {'yours': _fio_form(job, {}), 'realistic': _fio_form(job,
                                                                      fix)}
        # -S runtime_s= and file_size= shorten both forms alike (the
        # suite's own variables of its fio rounds), and say so
        size = forms['yours'].get('size')
        for form in forms.values():
            if 'runtime_s' in settings and 'runtime' in form:
                form['runtime'] = settings['runtime_s']
            if 'file_size' in settings and form.get('size') == size:
                form['size'] = settings['file_size']
        runtime = fiojob.seconds(forms['yours'].get('runtime')) or 0
        # the Darshan witness holds every write to the block size (fio's
        # default where the job sets none) and a storage variant's writes
        # to being sequential: a job of mixed sizes (bs=4k,64k, bssplit) or
        # random writes runs without it
        bs = forms['yours'].get('bs') or '4k'
        rw = forms['yours'].get('rw') or 'read'
        block_size = bs if ',' not in bs and ':' not in bs and \
            'bssplit' not in forms['yours'] and \
            'bsrange' not in forms['yours'] and 'rand' not in rw else ''
        filename = os.path.basename(job.value('filename') or '') \
            if job.value('filename') and ':' not in job.value('filename') \
            else ''
        doc = formsfile.document('fio', check, finding.gap, forms, {
            'page_cache_variants': ['yours'] if check == 'fio_cache_flags'
            else [],
            'overwrite_variants': ['yours'] if check ==
            'fio_time_based_overwrite' else [],
            'witness_syscall': 'fallocate' if check == 'fio_fallocate'
            else None,
            'runtime_s': int(runtime), 'filename': filename,
            'block_size': block_size,
            'darshan': [] if block_size else ['off'],
            'judge_overwrite': check == 'fio_time_based_overwrite'
            or not job.flag('time_based')})
        return 'fio', doc, forms
    if invocation.tool == 'IOR' and check == 'ior_page_cache':
        measure = finding.measure or {}
        if measure.get('nodes') not in (None, 1):
            return (f'it runs on {measure["nodes"]} nodes; --measure runs on '
                    f'this machine, one node')
        if shutil.which('ior') is None:
            return 'ior is not installed here (not on PATH)'
        forms = _ior_forms(invocation, finding, settings)
        if isinstance(forms, str):
            return forms
        # on one node the read can only be kept from the page cache by
        # O_DIRECT: the check's odirect defence and its gap
        gap = ('easy_read_none_over_odirect' if measure.get('read_after_write')
               else 'easy_write_none_over_fsync')
        tasks = settings.get('tasks_per_node') or measure.get('tasks') or 1
        doc = formsfile.document('ior', check, gap, forms, {
            'tasks_per_node': int(tasks), 'figure': gap.split('_')[1]})
        finding.measure = {**measure, 'gap': gap}
        return 'ior', doc, forms
    return (f'{check or "no check"} cannot be measured here by --measure '
            f'(it measures fio\'s S1, S2, S3 and IOR\'s S4 on one node)')


#: IOR options a measured form leaves out: where it writes and how often
#: (the check's), the checks of the data (-R, -W: a pass of their own, no
#: figure), the reference number of its output (-A); and any whose value
#: is a variable the input does not set (IOR's default then)
_IOR_DROPPED = ('-o', '-i', '-R', '-W', '-A')


def _ior_forms(invocation, finding, settings=None):
    '''The two IOR forms of a finding: the user's (its file and
    repetitions left to the check), the realistic.  The check's rounds
    look at the page cache between a write and its read: a read alone (an
    IO500 configuration's ``[ior-easy-read]``) writes its file first, as
    the phase before it did, and a write alone is read after (its figure
    unused); ``-S file_size=`` and ``-S runtime_s=`` set both forms' ``-b``
    and stonewall (``-D``; ``runtime_s=0`` drops it: ``-b`` then sets what
    each task writes).'''
    settings = settings or {}
    table = options.getopt_table('ior')
    launch = words.launch(words.split(_command_text(invocation.where.text)))
    given, _ = getopt.parse(launch.argv, table, 'IOR', invocation.where)
    writes = getopt.last(given, '-w') is not None
    reads = getopt.last(given, '-r') is not None
    add = ['-w'] if reads and not writes else ['-r'] if writes and \
        not reads else []
    if 'file_size' in settings:
        add += ['-b', settings['file_size']]
    dropped = _IOR_DROPPED + tuple(
        option.name for option in given
        if option.value and getopt.UNSET.match(option.value))
    if settings.get('runtime_s') in ('0', 0):
        dropped += ('-D',)               # no stonewall: -b sets the amount
    elif 'runtime_s' in settings and getopt.last(given, '-D') is not None:
        add += ['-D', settings['runtime_s']]
    yours = getopt.rewrite(launch.argv, given, dropped, add)[1:]
    given = getopt.parse(['ior', *yours], table, 'IOR', invocation.where)[0]
    if (finding.measure or {}).get('read_after_write'):
        transfer = fiojob.size_bytes(getopt.value(given, '-t', '256k'))
        if transfer is None or transfer % 4096:
            return ('its transfers are not aligned for O_DIRECT, the one '
                    'defence of a read on one node the check measures')
        api = (getopt.value(given, '-a') or 'POSIX').upper()
        if api in NO_ODIRECT_APIS:
            return (f'its back end, {api}, ignores O_DIRECT, the one '
                    f'defence of a read on one node the check measures')
        drop, add = ('-C', '-Q', '-Z'), knobs.IOR_DEFENCES['odirect']
    elif not finding.fix:
        return 'it has no realistic form to measure (it depends on the run)'
    else:
        drop, add = finding.fix
    realistic = getopt.rewrite(['ior', *yours], given, drop, add)[1:]
    return {'yours': yours, 'realistic': list(realistic)}


def _command_text(text):
    '''An invocation's command, without an IO500 phase's name
    (``[ior-easy-read]``) or a ReFrame test's (``IorWriteCheck:``).'''
    if text.startswith('[') and '] ' in text:
        return text.split('] ', 1)[1]
    if text.split() and text.split()[0].endswith(':'):
        return text.split(None, 1)[1]
    return text


def reframe_command(check_file, prefix, settings, partition):
    reframe = os.path.join(os.path.dirname(sys.executable), 'reframe')
    command = [reframe if os.path.exists(reframe) else 'reframe', '-C',
               paths.CONFIG, '-c', check_file, '-r', '--prefix', prefix,
               '--report-file', os.path.join(prefix, 'report.json'),
               '--perflogdir', os.path.join(prefix, 'perflogs'),
               '--system', partition or 'local:default']
    for name, value in settings.items():
        if name not in FORM_SETTINGS:
            command += ['-S', f'{name}={value}']
    return command


def run(reports, args):
    '''Measure every finding of ``reports`` that can be measured here;
    the exit code (1: measured, or findings; 2: a run failed).'''
    settings = dict(s.split('=', 1) for s in args.settings)
    done, code = set(), None
    for report in reports:
        for invocation in report.invocations:
            for finding in invocation.findings:
                key = (id(invocation), finding.check)
                if finding.pitfall == 'M1' or key in done:
                    continue
                done.add(key)
                planned = plan(report, finding, settings)
                head = (f'measure {finding.pitfall} ({finding.check}, '
                        f'gap {finding.gap}) of {invocation.where}')
                if isinstance(planned, str):
                    print(f'{head}: not measured: {planned}')
                    continue
                code = max(code or 0, _run_one(head, planned, finding,
                                               settings, args.partition))
    return code


def _run_one(head, planned, finding, settings, partition):
    _, doc, forms = planned
    directory = tempfile.mkdtemp(prefix='microbench-audit-')
    try:
        forms_file = os.path.join(directory, 'forms.json')
        formsfile.write(forms_file, doc)
        prefix = os.path.join(directory, 'run')
        command = reframe_command(paths.AUDIT_CHECKS, prefix, settings,
                                  partition)
        print(f'{head}: running (yours, then realistic, round-robin): '
              f'{formsfile.ENV}={forms_file} {" ".join(command)}',
              flush=True)
        # its perflogs and results storage are its own: an audit is no
        # session of the suite's history
        ran = subprocess.run(command, capture_output=True, text=True,
                             env={**os.environ, 'PYTHONPATH': paths.CHECKS,
                                  formsfile.ENV: forms_file,
                                  'RFM_SQLITE_DB_FILE': os.path.join(
                                      prefix, 'results.db')})
        try:
            with open(os.path.join(prefix, 'report.json')) as fp:
                report = json.load(fp)
        except (OSError, ValueError):
            print(f'{head}: ReFrame wrote no report (exit {ran.returncode}):'
                  f' {ran.stdout[-2000:]}{ran.stderr[-2000:]}')
            return 2
        print(gap_text(report, finding.gap, forms,
                       doc[doc['tool']].get('figure')))
        return 1 if ran.returncode == 0 else 2
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def gap_text(report, gap, forms=None, figure=None):
    '''The gap of a ReFrame run report as its check reports it: the ratio
    of the medians, every round's ratio, every sample of both forms (of
    ``figure``, where the gap is between two forms' ``figure``: IOR's
    write or read; else their first figure's).'''
    cases = [tc for run in report['runs'] for tc in run['testcases']]
    lines = []
    for case in cases:
        if case['result'] != 'pass':
            lines.append(f'  {case["display_name"]}: {case["result"]}: '
                         f'{case.get("fail_reason")}')
    for case in cases:
        values = case.get('perfvalues') or {}
        for key, value in values.items():
            if key.endswith(':' + gap):
                lines.append(f'  {gap}: {value[0]:.3g} {value[4]} (median '
                             f'of yours over median of realistic)')
                lines.append(f'    per round: '
                             f'{_figure_samples(case, gap)}')
                samples = _form_samples(cases, figure) or \
                    case.get('sample_values')
                lines.append(f'    samples: {samples}')
    if forms:
        for name, form in forms.items():
            lines.append(f'    {name}: {json.dumps(form)}')
    return '\n'.join(lines) if lines else '  no gap: see the run above'


def _form_samples(cases, figure):
    '''``yours: ... ; realistic: ...``: every sample of ``figure`` of each
    form's test case, or None where a form has none.'''
    if not figure:
        return None
    said = []
    for form in formsfile.FORMS:
        case = next((c for c in cases if f'%form={form}' in
                     c['display_name']), None)
        samples = fields.FIGURE_SAMPLES.read(case.get('figure_samples')) \
            if case else {}
        values = next((v for k, v in samples.items()
                       if k.startswith(f'{figure}_median_')), None)
        if values is None:
            return None
        said.append(f'{form}: {",".join(f"{x:g}" for x in values)}')
    return ' ; '.join(said)


def _figure_samples(case, gap):
    '''The samples of ``gap`` in the ``figure_samples`` of a test
    ``case``, as recorded; ``?`` where it has none.'''
    samples = fields.FIGURE_SAMPLES.read(case.get('figure_samples'))
    return fields.FIGURE_SAMPLES.value.encode(samples[gap]) \
        if gap in samples else '?'

