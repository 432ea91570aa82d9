#!/usr/bin/python3
"""A reply never reaches the wrong customer, through the real window and the accessibility bus.

Phase "first": an agent signs in, opens Ayşe's WhatsApp conversation (its channel cannot send),
writes a reply and presses Enter: it is refused and stays in Ayşe's thread with Retry. Then the
agent opens Burak's conversation and presses Enter at once: nothing may be sent. The agent starts a
draft for Burak and the window is closed.
Phase "second": the window again: Burak's draft is back in his composer, Ayşe's composer is empty
and her refused reply is still in her thread, marked, with Retry.

Prints one "ok ..." line per step; exits 1 with the reason on the first failure.
"""

import os
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import liaison_atspi as ui  # noqa: E402

NAMES = {
    "tr": {"signIn": "Giriş yap", "inbox": "Gelen kutusu", "inboxUnread": "Gelen kutusu, 2 okunmamış", "navigation": "Gezinme", "conversations": "Konuşmalar",
           "messages": "Mesajlar", "reply": "Yanıt", "retry": "Yeniden dene"},
    "en": {"signIn": "Sign in", "inbox": "Inbox", "inboxUnread": "Inbox, 2 unread", "navigation": "Navigation", "conversations": "Conversations",
           "messages": "Messages", "reply": "Reply", "retry": "Retry"},
}
AYSE_REPLY = "Ayşe Hanım, size özel fiyat 1.250 TL"
BURAK_DRAFT = "Burak Bey, teklifinizi yarın gönderiyorum"


def open_conversation(win, names, who):
    conversations = ui.find(win, pyatspi.ROLE_LIST, names["conversations"])
    ui.click(ui.find(conversations, pyatspi.ROLE_LIST_ITEM, who, into_items=True))
    messages = ui.find(win, pyatspi.ROLE_LIST, names["messages"])
    return messages


def composer(win, names):
    return ui.find(win, pyatspi.ROLE_TEXT, names["reply"], exact=True)


def run(args):
    names = NAMES[args.lang]
    ui.unlock_keyring()
    app = ui.App(args.binary, args.data_dir).start()
    ui.log("ok started")
    try:
        ui.sign_in(app, args.email, args.password, names["signIn"])
        win = ui.main_window(app, names["navigation"])
        ui.log("ok signed in")
        if args.phase == "first":
            # The navigation reads the Inbox's count: Ayşe's and Burak's conversations wait.
            entry = ui.area_entry(win, names["navigation"], names["inbox"])
            ui.wait_for(lambda: ui.name_of(entry) == names["inboxUnread"],
                        "the Inbox entry to read %r" % names["inboxUnread"])
            ui.log("ok navigation reads " + names["inboxUnread"])
        ui.open_area(win, names["navigation"], names["inbox"])
        ui.log("ok inbox")
        if args.phase == "first":
            open_conversation(win, names, "Ayşe")
            box = composer(win, names)
            ui.type_into(box, AYSE_REPLY)
            ui.focus(box)
            ui.key("Return")
            ui.find(win, pyatspi.ROLE_PUSH_BUTTON, names["retry"], exact=True)
            ui.wait_for(lambda: ui.text_of(composer(win, names)) == "", "Ayşe's composer to be empty")
            ui.log("ok refused reply kept in its conversation with Retry")
            ui.screenshot(os.path.join(args.shots, "inbox-refused.png"))

            open_conversation(win, names, "Burak")
            box = composer(win, names)
            ui.wait_for(lambda: ui.text_of(box) == "", "Burak's composer to be empty")
            ui.absent(win, pyatspi.ROLE_PUSH_BUTTON, names["retry"], exact=True)
            ui.log("ok Burak's composer empty")
            ui.focus(box)
            ui.key("Return")  # nothing to send: nothing may reach Burak
            time.sleep(1.0)
            ui.type_into(box, BURAK_DRAFT)
            time.sleep(1.0)  # the draft is kept once typing pauses
            ui.log("ok Burak's draft typed")
            ui.screenshot(os.path.join(args.shots, "inbox-draft.png"))
        else:
            messages = open_conversation(win, names, "Burak")
            ui.wait_for(lambda: ui.text_of(composer(win, names)) == BURAK_DRAFT, "Burak's draft to come back")
            ui.log("ok Burak's draft restored")
            messages = open_conversation(win, names, "Ayşe")
            ui.wait_for(lambda: ui.text_of(composer(win, names)) == "", "Ayşe's composer to be empty")
            ui.find(messages, pyatspi.ROLE_LIST_ITEM, AYSE_REPLY, into_items=True)
            ui.find(win, pyatspi.ROLE_PUSH_BUTTON, names["retry"], exact=True)
            ui.log("ok Ayşe's refused reply still in her thread")
            ui.screenshot(os.path.join(args.shots, "inbox-after-restart.png"))
    finally:
        rc = app.stop()
        ui.log("stopped %s" % rc)
    if rc != 0:
        raise ui.WalkError("the program left with exit code %s" % rc)


if __name__ == "__main__":
    ui.scenario_main(run, ["first", "second"])
