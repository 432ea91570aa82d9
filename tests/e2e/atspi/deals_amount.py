#!/usr/bin/python3
"""Amounts typed the English way are read right in the Turkish window, through the accessibility bus.

An agent opens Deals, makes a new deal and types "1250.50" into its amount: the field says what it
understood ("= 1.250,50 TRY") and Save stores it. A second deal: "1,250" is ambiguous in Turkish (1.250
or 1,25?): the field says so, Save keeps the dialog open and stores nothing; "1,250.50" is then read as
1.250,50 and stored. The test checks the stored values in the database after.

Prints one "ok ..." line per step; exits 1 with the reason on the first failure.
"""

import os
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import liaison_atspi as ui  # noqa: E402

NAMES = {
    "tr": {"signIn": "Giriş yap", "deals": "Fırsatlar", "navigation": "Gezinme", "newDeal": "Yeni fırsat…",
           "dialog": "Yeni fırsat", "name": "Ad", "amount": "Tutar", "save": "Kaydet", "ambiguous": "belirsiz"},
    "en": {"signIn": "Sign in", "deals": "Deals", "navigation": "Navigation", "newDeal": "New deal…",
           "dialog": "New deal", "name": "Name", "amount": "Value", "save": "Save", "ambiguous": "ambiguous"},
}


def new_deal(app, win, names, name):
    ui.press(ui.find(win, pyatspi.ROLE_PUSH_BUTTON, names["newDeal"], exact=True))
    dialog = app.window(names["dialog"])
    ui.set_text(ui.find(dialog, pyatspi.ROLE_TEXT, names["name"], exact=True), name)
    return dialog


def reading(dialog, expected):
    """Waits for the line under the amount that says what it understood (or why it refuses)."""
    return ui.find(dialog, pyatspi.ROLE_LABEL, expected)


def run(args):
    names = NAMES[args.lang]
    ui.unlock_keyring()
    app = ui.App(args.binary, args.data_dir).start()
    ui.log("ok started")
    try:
        ui.sign_in(app, args.email, args.password, names["signIn"])
        win = ui.main_window(app, names["navigation"])
        ui.open_area(win, names["navigation"], names["deals"])
        ui.log("ok deals")

        dialog = new_deal(app, win, names, "Anadolu Lojistik bakım")
        amount = ui.find(dialog, pyatspi.ROLE_TEXT, names["amount"], exact=True)
        ui.set_text(amount, "1250.50")
        reading(dialog, "1.250,50 TRY" if args.lang == "tr" else "1,250.50 TRY")
        ui.log("ok 1250.50 read as 1.250,50 before saving")
        ui.screenshot(os.path.join(args.shots, "deal-amount-read.png"))
        ui.press(ui.find(dialog, pyatspi.ROLE_PUSH_BUTTON, names["save"], exact=True))
        ui.absent(app.root, pyatspi.ROLE_DIALOG, names["dialog"], exact=True)
        ui.log("ok saved")

        dialog = new_deal(app, win, names, "Ege Tekstil")
        amount = ui.find(dialog, pyatspi.ROLE_TEXT, names["amount"], exact=True)
        ui.set_text(amount, "1,250")
        reading(dialog, names["ambiguous"])
        ui.screenshot(os.path.join(args.shots, "deal-amount-ambiguous.png"))
        ui.press(ui.find(dialog, pyatspi.ROLE_PUSH_BUTTON, names["save"], exact=True))
        time.sleep(1.0)
        if not ui.showing(dialog):
            raise ui.WalkError("an ambiguous amount was saved")
        ui.log("ok 1,250 refused as ambiguous, the dialog stays")
        ui.set_text(amount, "1,250.50")
        reading(dialog, "1.250,50 TRY" if args.lang == "tr" else "1,250.50 TRY")
        ui.press(ui.find(dialog, pyatspi.ROLE_PUSH_BUTTON, names["save"], exact=True))
        ui.absent(app.root, pyatspi.ROLE_DIALOG, names["dialog"], exact=True)
        ui.log("ok 1,250.50 saved")
        ui.screenshot(os.path.join(args.shots, "deal-board.png"))
    finally:
        rc = app.stop()
        ui.log("stopped %s" % rc)
    if rc != 0:
        raise ui.WalkError("the program left with exit code %s" % rc)


if __name__ == "__main__":
    ui.scenario_main(run)
