#!/usr/bin/python3
"""From a contact, the next thing is done there, and the keyboard gets anywhere: through the
accessibility bus in the Turkish window.

The agent searches "Ayşe", goes Down into the results (the contact shows), opens the contact's Tasks
tab and its "New task…": the dialog comes with Ayşe and the agent filled in; a title and OK store the
task (the test checks the database after). Then Ctrl+K, "Burak", Enter: Burak's contact is shown.

Prints one "ok ..." line per step; exits 1 with the reason on the first failure.
"""

import os
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import liaison_atspi as ui  # noqa: E402

NAMES = {
    "tr": {"signIn": "Giriş yap", "navigation": "Gezinme", "contacts": "Kişiler", "search": "Kişilerde ara",
           "tasksTab": "Görev",
           "newTask": "Yeni görev…", "dialog": "Yeni görev", "title": "Başlık", "ok": "Tamam", "jump": "Git"},
    "en": {"signIn": "Sign in", "navigation": "Navigation", "contacts": "Contacts", "search": "Search contacts",
           "tasksTab": "Task",
           "newTask": "New task…", "dialog": "New task", "title": "Title", "ok": "OK", "jump": "Jump to"},
}
TASK_TITLE = "Ayşe Hanım'ı teklif için ara"


def run(args):
    names = NAMES[args.lang]
    ui.unlock_keyring()
    app = ui.App(args.binary, args.data_dir).start()
    ui.log("ok started")
    try:
        ui.sign_in(app, args.email, args.password, names["signIn"])
        win = ui.main_window(app, names["navigation"])
        # The window starts on Home: the agent goes to Contacts.
        ui.open_area(win, names["navigation"], names["contacts"])
        time.sleep(0.5)
        search = ui.find(win, pyatspi.ROLE_TEXT, names["search"], exact=True)
        ui.set_text(search, "Ayşe Yılmaz")
        time.sleep(0.8)  # the search waits for typing to pause
        ui.focus(search)
        ui.key("Down")  # into the results: the first row, its contact shown
        ui.find(win, pyatspi.ROLE_LABEL, "Ayşe Yılmaz", exact=True)
        ui.log("ok Down from the search shows the contact")

        tab = ui.find(win, pyatspi.ROLE_PAGE_TAB, names["tasksTab"])
        ui.click(tab)
        ui.press(ui.find(win, pyatspi.ROLE_PUSH_BUTTON, names["newTask"], exact=True))
        dialog = app.window(names["dialog"])
        ui.set_text(ui.find(dialog, pyatspi.ROLE_TEXT, names["title"], exact=True), TASK_TITLE)
        ui.screenshot(os.path.join(args.shots, "contact-new-task.png"))
        ui.press(ui.find(dialog, pyatspi.ROLE_PUSH_BUTTON, names["ok"], exact=True))
        ui.absent(app.root, pyatspi.ROLE_DIALOG, names["dialog"], exact=True)
        ui.log("ok a task made from the contact")

        ui.click(search)  # back in the window, as a person clicks before typing
        ui.key("ctrl+k")
        jump = app.window(names["jump"])
        ui.set_text(ui.find(jump, pyatspi.ROLE_TEXT, names["jump"], exact=True), "Burak")
        time.sleep(1.0)  # the matches come from a worker thread
        ui.key("Return")
        ui.find(win, pyatspi.ROLE_LABEL, "Burak Şahin", exact=True)
        ui.log("ok Ctrl+K found and opened Burak")
        ui.screenshot(os.path.join(args.shots, "contact-jump.png"))
    finally:
        rc = app.stop()
        ui.log("stopped %s" % rc)
    if rc != 0:
        raise ui.WalkError("the program left with exit code %s" % rc)


if __name__ == "__main__":
    ui.scenario_main(run)
