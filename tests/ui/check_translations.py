#!/usr/bin/env python3
"""The translations against the code: every message the code translates (tr(), QT_TRANSLATE_NOOP,
QCoreApplication::translate in ui, app, model, messaging and server, the sources app/CMakeLists.txt
hands qt_add_translations) must be in each finished translation (liaison_tr.ts, liaison_de.ts) with a
finished translation, and in liaison_en.ts; a message no code has any more is reported too.

lupdate reads the sources into a temporary .ts (the translation files are not touched), so that a
tr() added without its translations fails here, named with its context and source.

Each finished translation is also checked message by message: no type="unfinished" (or obsolete,
vanished), no empty text, one form a plural message (numerus="yes") takes in that language (Turkish
one, German two), the source's placeholders (%1, %L1, %n; a singular form may leave %n out), its
accelerator (&) and its line breaks kept.

Usage: check_translations.py --lupdate PATH --source-dir DIR
Exit code 0 when all is well, 1 with the problems listed.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SOURCE_FOLDERS = ["ui", "app", "model", "messaging", "server"]
# The finished translations and the number of plural forms their language takes.
FINISHED = {"liaison_tr.ts": 1, "liaison_de.ts": 2}
PLACEHOLDER = re.compile(r"%(L?\d+|L?n)")
ACCELERATOR = re.compile(r"&(?!&)\S")


def messages(path):
    """(context, source, comment) -> {numerus, type, forms} of a .ts file."""
    found = {}
    root = ET.parse(path).getroot()
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            translation = message.find("translation")
            numerus = message.get("numerus") == "yes"
            if translation is None:
                forms, kind = [], ""
            else:
                kind = translation.get("type", "")
                forms = [f.text or "" for f in translation.iter("numerusform")] if numerus \
                    else [translation.text or ""]
            found[key] = {"numerus": numerus, "type": kind, "forms": forms}
    return found


def placeholders(text):
    return sorted(set(PLACEHOLDER.findall(text.replace("%%", "\x01%"))))


def describe(key):
    context, source, comment = key
    return '%s "%s"%s' % (context, source.replace("\n", "\\n"), " (%s)" % comment if comment else "")


def check_finished(key, entry, plural_forms):
    problems = []
    source = key[1]
    if entry["type"]:
        problems.append('type="%s"' % entry["type"])
    wanted = plural_forms if entry["numerus"] else 1
    if len(entry["forms"]) != wanted:
        problems.append("%d form(s), the language takes %d" % (len(entry["forms"]), wanted))
    for form in entry["forms"]:
        if not form.strip():
            problems.append("an empty translation")
            continue
        want, got = placeholders(source), placeholders(form)
        if entry["numerus"]:  # "1 contact": a singular may say the number in words
            want = [p for p in want if p not in ("n", "Ln")]
            got = [p for p in got if p not in ("n", "Ln")]
        if want != got:
            problems.append('placeholders %s in "%s"' % (got, form))
        if bool(ACCELERATOR.search(source)) != bool(ACCELERATOR.search(form)):
            problems.append('accelerator lost or added in "%s"' % form)
        if source.count("\n") != form.count("\n"):
            problems.append('line breaks differ in "%s"' % form.replace("\n", "\\n"))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lupdate", required=True)
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()
    translations = os.path.join(args.source_dir, "translations")

    files = []
    for folder in SOURCE_FOLDERS:
        for directory, _, names in os.walk(os.path.join(args.source_dir, folder)):
            files += [os.path.join(directory, n) for n in sorted(names) if n.endswith((".cpp", ".h"))]
    with tempfile.TemporaryDirectory() as scratch:
        listing = os.path.join(scratch, "sources.txt")
        with open(listing, "w", encoding="utf-8") as out:
            out.write("\n".join(files) + "\n")
        current = os.path.join(scratch, "current.ts")
        run = subprocess.run([args.lupdate, "-silent", "-locations", "none", "-no-obsolete", "@" + listing,
                              "-ts", current], capture_output=True, text=True, timeout=120)
        if run.returncode != 0 or not os.path.exists(current):
            print("lupdate failed (%d):\n%s%s" % (run.returncode, run.stdout, run.stderr))
            return 1
        code = messages(current)
    if len(code) < 100:
        print("lupdate found only %d messages in %s" % (len(code), ", ".join(SOURCE_FOLDERS)))
        return 1

    report = []
    for name in list(FINISHED) + ["liaison_en.ts"]:
        path = os.path.join(translations, name)
        found = messages(path)
        problems = []
        for key in sorted(set(code) - set(found)):
            problems.append("missing: " + describe(key))
        for key in sorted(set(found) - set(code)):
            problems.append("in no code any more: " + describe(key))
        for key in sorted(set(code) & set(found)):
            if found[key]["numerus"] != code[key]["numerus"]:
                problems.append("numerus differs from the code's: " + describe(key))
            elif name in FINISHED:
                problems += ["%s: %s" % (describe(key), p) for p in check_finished(key, found[key], FINISHED[name])]
        if problems:
            report.append("%s: %d problem(s)\n  %s" % (name, len(problems), "\n  ".join(problems)))
        else:
            print("%s: %d messages, all current%s" % (name, len(found), " and finished" if name in FINISHED else ""))
    if report:
        print("\n".join(report))
        print("\nEvery tr() of the window needs its Turkish and German translation (finished) and an unfinished "
              "entry in liaison_en.ts, in its context.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
