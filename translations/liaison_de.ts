<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AiFeedbackButtons</name>
    <message>
        <source>Helpful</source>
        <translation>Hilfreich</translation>
    </message>
    <message>
        <source>Not helpful</source>
        <translation>Nicht hilfreich</translation>
    </message>
    <message>
        <source>Why was it not helpful?</source>
        <translation>Warum war es nicht hilfreich?</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>Falsch</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>Unvollständig</translation>
    </message>
    <message>
        <source>Out of date</source>
        <translation>Veraltet</translation>
    </message>
    <message>
        <source>Inappropriate</source>
        <translation>Unangemessen</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstiges</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>falsch</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>unvollständig</translation>
    </message>
    <message>
        <source>out of date</source>
        <translation>veraltet</translation>
    </message>
    <message>
        <source>inappropriate</source>
        <translation>unangemessen</translation>
    </message>
    <message>
        <source>other</source>
        <translation>sonstiges</translation>
    </message>
    <message>
        <source>You marked it helpful</source>
        <translation>Sie haben es als hilfreich markiert</translation>
    </message>
    <message>
        <source>You marked it not helpful</source>
        <translation>Sie haben es als nicht hilfreich markiert</translation>
    </message>
    <message>
        <source>You marked it not helpful: %1</source>
        <translation>Sie haben es als nicht hilfreich markiert: %1</translation>
    </message>
    <message>
        <source>No feedback given yet</source>
        <translation>Noch keine Rückmeldung gegeben</translation>
    </message>
    <message>
        <source>The answer was helpful</source>
        <translation>Die Antwort war hilfreich</translation>
    </message>
    <message>
        <source>The answer was not helpful (the arrow: why)</source>
        <translation>Die Antwort war nicht hilfreich (der Pfeil: warum)</translation>
    </message>
</context>
<context>
    <name>AmountEdit</name>
    <message>
        <source>Enter an amount.</source>
        <translation>Geben Sie einen Betrag ein.</translation>
    </message>
    <message>
        <source>“%1” is not an amount: leave out “%2” and write digits as in %3.</source>
        <translation>„%1“ ist kein Betrag: Lassen Sie „%2“ weg und schreiben Sie die Ziffern wie in %3.</translation>
    </message>
    <message>
        <source>“%1” is not an amount: a mark goes between digits, as in %2.</source>
        <translation>„%1“ ist kein Betrag: Ein Trennzeichen steht zwischen Ziffern, wie in %2.</translation>
    </message>
    <message>
        <source>“%1” is not an amount: group the digits in threes with one kind of mark, as in %2.</source>
        <translation>„%1“ ist kein Betrag: Gruppieren Sie die Ziffern in Dreiergruppen mit einer Art Trennzeichen, wie in %2.</translation>
    </message>
    <message>
        <source>“%1” is ambiguous: write %2 (an amount has at most two decimals).</source>
        <translation>„%1“ ist mehrdeutig: Schreiben Sie %2 (ein Betrag hat höchstens zwei Nachkommastellen).</translation>
    </message>
    <message>
        <source>“%1” is ambiguous: write %2 or %3.</source>
        <translation>„%1“ ist mehrdeutig: Schreiben Sie %2 oder %3.</translation>
    </message>
    <message>
        <source>“%1” has more than two decimals.</source>
        <translation>„%1“ hat mehr als zwei Nachkommastellen.</translation>
    </message>
    <message>
        <source>An amount cannot be negative.</source>
        <translation>Ein Betrag darf nicht negativ sein.</translation>
    </message>
    <message>
        <source>“%1” is too large: at most %2.</source>
        <translation>„%1“ ist zu groß: höchstens %2.</translation>
    </message>
    <message>
        <source>= %1</source>
        <comment>the amount a field understood, with its currency</comment>
        <translation>= %1</translation>
    </message>
</context>
<context>
    <name>ApiKeysPage</name>
    <message>
        <source>API keys let local tools call the Liaison API. A key is shown once, when it is created; Liaison keeps only a hash of it.</source>
        <translation>Mit API-Schlüsseln können lokale Programme die Liaison-API aufrufen. Ein Schlüssel wird einmal angezeigt, wenn er erstellt wird; Liaison speichert nur einen Hash davon.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Berechtigungen</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Zuletzt verwendet</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Create…</source>
        <translation>Erstellen…</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Could not read the API keys: %1</source>
        <translation>Die API-Schlüssel konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>Widerrufen am %1</translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation>API-Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>Revoke the key &quot;%1&quot;? Tools that use it will be refused at once.</source>
        <translation>Den Schlüssel „%1“ widerrufen? Programme, die ihn verwenden, werden sofort abgewiesen.</translation>
    </message>
    <message>
        <source>No API keys yet. Create one for each tool that uses the API, so that it can be revoked alone.</source>
        <translation>Noch keine API-Schlüssel. Erstellen Sie einen für jedes Programm, das die API nutzt, damit er einzeln widerrufen werden kann.</translation>
    </message>
</context>
<context>
    <name>AppSettings</name>
    <message>
        <source>Website visitor</source>
        <translation>Website-Besucher</translation>
    </message>
</context>
<context>
    <name>AppearancePage</name>
    <message>
        <source>Appearance</source>
        <translation>Darstellung</translation>
    </message>
    <message>
        <source>A&amp;ppearance…</source>
        <translation>&amp;Darstellung…</translation>
    </message>
    <message>
        <source>How the window looks. Following the desktop, Liaison turns dark and light with it.</source>
        <translation>Wie das Fenster aussieht. Wenn es dem Desktop folgt, wechselt Liaison mit ihm zwischen dunkel und hell.</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Design</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>&amp;Design:</translation>
    </message>
    <message>
        <source>The choice applies now but was not saved: %1</source>
        <translation>Die Auswahl gilt jetzt, wurde aber nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Follow the desktop (dark now)</source>
        <translation>Dem Desktop folgen (jetzt dunkel)</translation>
    </message>
    <message>
        <source>Follow the desktop (light now)</source>
        <translation>Dem Desktop folgen (jetzt hell)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>The system&apos;s language (%1)</source>
        <translation>Sprache des Systems (%1)</translation>
    </message>
    <message>
        <source>A new language applies at the next start.</source>
        <translation>Eine neue Sprache gilt ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <source>The language was not saved: %1</source>
        <translation>Die Sprache wurde nicht gespeichert: %1</translation>
    </message>
</context>
<context>
    <name>CampaignContactsPanel</name>
    <message>
        <source>Contact status</source>
        <translation>Kontaktstatus</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Nächster Schritt</translation>
    </message>
    <message>
        <source>Came from</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>Contacts of the campaign</source>
        <translation>Kontakte der Kampagne</translation>
    </message>
    <message>
        <source>Steps sent to the contact of the campaign&apos;s steps</source>
        <translation>An den Kontakt gesendete Schritte der Kampagne</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>No contacts yet: they enter once the campaign runs, a drip&apos;s from its segment, a triggered one&apos;s as its event happens.</source>
        <translation>Noch keine Kontakte: Sie kommen hinzu, sobald die Kampagne läuft – bei einer Drip-Kampagne aus ihrem Segment, bei einer ausgelösten, wenn ihr Ereignis eintritt.</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Geöffnet</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Geklickt</translation>
    </message>
    <message>
        <source>Steps sent to the contact</source>
        <translation>An den Kontakt gesendete Schritte</translation>
    </message>
    <message>
        <source>Choose a contact to see the steps sent to it.</source>
        <translation>Wählen Sie einen Kontakt, um die an ihn gesendeten Schritte zu sehen.</translation>
    </message>
    <message>
        <source>(deleted contact)</source>
        <translation>(gelöschter Kontakt)</translation>
    </message>
    <message>
        <source>A member of the campaign&apos;s segment; entered %1</source>
        <translation>Mitglied des Segments der Kampagne; hinzugekommen %1</translation>
    </message>
    <message>
        <source>%1; entered %2</source>
        <translation>%1; hinzugekommen %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Steps sent to %1</source>
        <translation>An %1 gesendete Schritte</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Steps sent</source>
        <translation>Gesendete Schritte</translation>
    </message>
    <message>
        <source>No step has been sent to this contact yet.</source>
        <translation>An diesen Kontakt wurde noch kein Schritt gesendet.</translation>
    </message>
    <message>
        <source>Search contacts by name…</source>
        <translation>Kontakte nach Namen suchen…</translation>
    </message>
    <message>
        <source>Search contacts by name</source>
        <translation>Kontakte nach Namen suchen</translation>
    </message>
</context>
<context>
    <name>CampaignEditor</name>
    <message>
        <source>Ayşe</source>
        <translation>Anna</translation>
    </message>
    <message>
        <source>Yılmaz</source>
        <translation>Schmidt</translation>
    </message>
    <message>
        <source>Örnek Ltd.</source>
        <translation>Beispiel GmbH</translation>
    </message>
    <message>
        <source>Purchasing manager</source>
        <translation>Einkaufsleiterin</translation>
    </message>
    <message>
        <source>New campaign</source>
        <translation>Neue Kampagne</translation>
    </message>
    <message>
        <source>Campaign “%1”</source>
        <translation>Kampagne „%1“</translation>
    </message>
    <message>
        <source>e.g. November newsletter</source>
        <translation>z. B. Newsletter November</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Name</translation>
    </message>
    <message>
        <source>One message to the whole audience, now or at a set time</source>
        <translation>Eine Nachricht an die ganze Zielgruppe, jetzt oder zu einem festgelegten Zeitpunkt</translation>
    </message>
    <message>
        <source>A series of messages, each a set time after the one before</source>
        <translation>Eine Reihe von Nachrichten, jede eine festgelegte Zeit nach der vorigen</translation>
    </message>
    <message>
        <source>A series of messages that starts for a contact when something happens</source>
        <translation>Eine Reihe von Nachrichten, die für einen Kontakt beginnt, wenn etwas geschieht</translation>
    </message>
    <message>
        <source>&amp;Type</source>
        <translation>&amp;Typ</translation>
    </message>
    <message>
        <source>&amp;Channel</source>
        <translation>&amp;Kanal</translation>
    </message>
    <message>
        <source>Choose a segment…</source>
        <translation>Segment wählen…</translation>
    </message>
    <message>
        <source>&amp;Audience</source>
        <translation>&amp;Zielgruppe</translation>
    </message>
    <message>
        <source>Tag or stage</source>
        <translation>Tag oder Phase</translation>
    </message>
    <message>
        <source>Starts &amp;when</source>
        <translation>Startet &amp;wenn</translation>
    </message>
    <message>
        <source>Send at</source>
        <translation>Senden am</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Planen</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Wait (hours)</source>
        <translation>Warten (Stunden)</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Betreff</translation>
    </message>
    <message>
        <source>Add step</source>
        <translation>Schritt hinzufügen</translation>
    </message>
    <message>
        <source>Remove step</source>
        <translation>Schritt entfernen</translation>
    </message>
    <message>
        <source>&amp;Subject</source>
        <translation>&amp;Betreff</translation>
    </message>
    <message>
        <source>an approved template&apos;s name</source>
        <translation>Name einer genehmigten Vorlage</translation>
    </message>
    <message>
        <source>Template language</source>
        <translation>Sprache der Vorlage</translation>
    </message>
    <message>
        <source>Te&amp;mplate</source>
        <translation>&amp;Vorlage</translation>
    </message>
    <message>
        <source>&amp;Message</source>
        <translation>Nach&amp;richt</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <source>Double-click a field to insert it at the cursor. A fallback follows a bar: {{firstName|there}}.</source>
        <translation>Doppelklicken Sie auf ein Feld, um es an der Cursorposition einzufügen. Ein Ersatzwert folgt nach einem Strich: {{firstName|there}}.</translation>
    </message>
    <message>
        <source>Merge fields</source>
        <translation>Seriendruckfelder</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>Einfügen</translation>
    </message>
    <message>
        <source>Send this campaign to a few addresses only, to see it as they will. Test sends are not counted in the statistics. A new campaign is saved first.</source>
        <translation>Senden Sie diese Kampagne nur an einige Adressen, um sie so zu sehen, wie die Empfänger sie sehen werden. Testsendungen zählen nicht in der Statistik. Eine neue Kampagne wird zuerst gespeichert.</translation>
    </message>
    <message>
        <source>Test addresses</source>
        <translation>Testadressen</translation>
    </message>
    <message>
        <source>addresses, separated by commas</source>
        <translation>Adressen, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Send test</source>
        <translation>Test senden</translation>
    </message>
    <message>
        <source>Test send</source>
        <translation>Testsendung</translation>
    </message>
    <message>
        <source>Only a draft or scheduled campaign can be changed</source>
        <translation>Nur ein Entwurf oder eine geplante Kampagne kann geändert werden</translation>
    </message>
    <message>
        <source>HTML &amp;body</source>
        <translation>HTML-&amp;Inhalt</translation>
    </message>
    <message>
        <source>the tag</source>
        <translation>das Tag</translation>
    </message>
    <message>
        <source>the stage</source>
        <translation>die Phase</translation>
    </message>
    <message>
        <source>Type at least one address.</source>
        <translation>Geben Sie mindestens eine Adresse ein.</translation>
    </message>
    <message>
        <source>Not sent: the campaign could not be saved (see above).</source>
        <translation>Nicht gesendet: Die Kampagne konnte nicht gespeichert werden (siehe oben).</translation>
    </message>
    <message numerus="yes">
        <source>A test is on its way to %n address(es).</source>
        <translation>
            <numerusform>Ein Test ist unterwegs an %n Adresse.</numerusform>
            <numerusform>Ein Test ist unterwegs an %n Adressen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose who receives it: a segment of contacts.</source>
        <translation>Wählen Sie, wer sie erhält: ein Segment von Kontakten.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n contact(s) would receive it</source>
        <translation>
            <numerusform>%n Kontakt würde sie erhalten</numerusform>
            <numerusform>%n Kontakte würden sie erhalten</numerusform>
        </translation>
    </message>
    <message>
        <source>(of %1 in the segment; left out: %2)</source>
        <translation>(von %1 im Segment; ausgelassen: %2)</translation>
    </message>
    <message>
        <source>Filled in for %1, a contact of the audience.</source>
        <translation>Ausgefüllt für %1, einen Kontakt der Zielgruppe.</translation>
    </message>
    <message>
        <source>Filled in for a sample contact, %1.</source>
        <translation>Ausgefüllt für einen Beispielkontakt, %1.</translation>
    </message>
    <message>
        <source>The approved template “%1” is sent as WhatsApp has it.</source>
        <translation>Die genehmigte Vorlage „%1“ wird so gesendet, wie WhatsApp sie hat.</translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation>Betreff:</translation>
    </message>
    <message>
        <source>Sending hours</source>
        <translation>Sendezeiten</translation>
    </message>
    <message>
        <source>From hour</source>
        <translation>Ab Stunde</translation>
    </message>
    <message>
        <source>:00</source>
        <translation>:00</translation>
    </message>
    <message>
        <source>To hour</source>
        <translation>Bis Stunde</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>Tage</translation>
    </message>
    <message>
        <source>None chosen: every day</source>
        <translation>Keine gewählt: jeden Tag</translation>
    </message>
    <message>
        <source>{{1}}; {{2}}; … e.g. {{firstName|there}}; November</source>
        <translation>{{1}}; {{2}}; … z. B. {{firstName|there}}; November</translation>
    </message>
    <message>
        <source>Template &amp;values</source>
        <translation>Vorlag&amp;enwerte</translation>
    </message>
    <message>
        <source>The approved template “%1” is sent with %2.</source>
        <translation>Die genehmigte Vorlage „%1“ wird mit %2 gesendet.</translation>
    </message>
</context>
<context>
    <name>CampaignRecipientsPanel</name>
    <message>
        <source>Search by address or name…</source>
        <translation>Nach Adresse oder Name suchen…</translation>
    </message>
    <message>
        <source>Search recipients</source>
        <translation>Empfänger suchen</translation>
    </message>
    <message>
        <source>Recipient status</source>
        <translation>Empfängerstatus</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>Test sends</source>
        <translation>Testsendungen</translation>
    </message>
    <message>
        <source>Show the test sends instead of the audience</source>
        <translation>Testsendungen statt der Zielgruppe anzeigen</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Geöffnet</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Geklickt</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation>Empfänger</translation>
    </message>
    <message>
        <source>No recipients here yet: the audience is taken when the campaign starts.</source>
        <translation>Hier noch keine Empfänger: Die Zielgruppe wird beim Start der Kampagne festgelegt.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>hard</source>
        <translation>dauerhaft</translation>
    </message>
    <message>
        <source>soft</source>
        <translation>vorübergehend</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
</context>
<context>
    <name>CampaignStatsPanel</name>
    <message>
        <source>Audience</source>
        <translation>Zielgruppe</translation>
    </message>
    <message>
        <source>The contacts of the frozen audience, skipped ones included</source>
        <translation>Die Kontakte der festgelegten Zielgruppe, übersprungene eingeschlossen</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Handed to the provider</source>
        <translation>An den Anbieter übergeben</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Zugestellt</translation>
    </message>
    <message>
        <source>Sent and not bounced (SMS, WhatsApp: reported delivered)</source>
        <translation>Gesendet und nicht zurückgewiesen (SMS, WhatsApp: als zugestellt gemeldet)</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Geöffnet</translation>
    </message>
    <message>
        <source>Opened by a person or clicked; mail providers&apos; proxies apart</source>
        <translation>Von einer Person geöffnet oder angeklickt; ohne Proxys der Mail-Anbieter</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Geklickt</translation>
    </message>
    <message>
        <source>Clicked a link</source>
        <translation>Einen Link angeklickt</translation>
    </message>
    <message>
        <source>Bounced</source>
        <translation>Unzustellbar</translation>
    </message>
    <message>
        <source>Refused by the receiving server, for good or for now</source>
        <translation>Vom empfangenden Server abgewiesen, dauerhaft oder vorübergehend</translation>
    </message>
    <message>
        <source>Unsubscribed</source>
        <translation>Abgemeldet</translation>
    </message>
    <message>
        <source>Unsubscribed through this campaign</source>
        <translation>Über diese Kampagne abgemeldet</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Left out: no address, unsubscribed, bounced before or a duplicate address</source>
        <translation>Ausgelassen: keine Adresse, abgemeldet, früher unzustellbar oder doppelte Adresse</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Could not be sent</source>
        <translation>Konnte nicht gesendet werden</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Not sent yet</source>
        <translation>Noch nicht gesendet</translation>
    </message>
    <message>
        <source>Delivery rate</source>
        <translation>Zustellrate</translation>
    </message>
    <message>
        <source>Delivered of sent</source>
        <translation>Zugestellt von gesendet</translation>
    </message>
    <message>
        <source>Open rate</source>
        <translation>Öffnungsrate</translation>
    </message>
    <message>
        <source>Opened of delivered</source>
        <translation>Geöffnet von zugestellt</translation>
    </message>
    <message>
        <source>Click rate</source>
        <translation>Klickrate</translation>
    </message>
    <message>
        <source>Clicked of delivered</source>
        <translation>Geklickt von zugestellt</translation>
    </message>
    <message>
        <source>Funnel</source>
        <translation>Trichter</translation>
    </message>
    <message>
        <source>Choose a campaign to see its statistics.</source>
        <translation>Wählen Sie eine Kampagne, um ihre Statistik zu sehen.</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Skipped: %1.</source>
        <translation>Übersprungen: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n open(s) by mail providers&apos; proxies not counted.</source>
        <translation>
            <numerusform>%n Öffnung durch Proxys der Mail-Anbieter nicht gezählt.</numerusform>
            <numerusform>%n Öffnungen durch Proxys der Mail-Anbieter nicht gezählt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation>Empfänger</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1.</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>One message per contact and step released, skipped ones included</source>
        <translation>Eine Nachricht je Kontakt und freigegebenem Schritt, übersprungene eingeschlossen</translation>
    </message>
</context>
<context>
    <name>CampaignText</name>
    <message>
        <source>Draft</source>
        <translation>Entwurf</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>Geplant</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>Wird gesendet</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>SMS</source>
        <translation>SMS</translation>
    </message>
    <message>
        <source>WhatsApp</source>
        <translation>WhatsApp</translation>
    </message>
    <message>
        <source>Broadcast</source>
        <translation>Rundsendung</translation>
    </message>
    <message>
        <source>Drip</source>
        <translation>Drip</translation>
    </message>
    <message>
        <source>Triggered</source>
        <translation>Ausgelöst</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Sending</source>
        <comment>a recipient</comment>
        <translation>Wird gesendet</translation>
    </message>
    <message>
        <source>Sent</source>
        <comment>a recipient</comment>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Zugestellt</translation>
    </message>
    <message>
        <source>Bounced</source>
        <translation>Unzustellbar</translation>
    </message>
    <message>
        <source>Failed</source>
        <comment>a recipient</comment>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>no address</source>
        <translation>keine Adresse</translation>
    </message>
    <message>
        <source>unsubscribed</source>
        <translation>abgemeldet</translation>
    </message>
    <message>
        <source>bounced before</source>
        <translation>früher unzustellbar</translation>
    </message>
    <message>
        <source>duplicate address</source>
        <translation>doppelte Adresse</translation>
    </message>
    <message>
        <source>Unsubscribed</source>
        <translation>Abgemeldet</translation>
    </message>
    <message>
        <source>Hard bounce</source>
        <translation>Dauerhaft unzustellbar</translation>
    </message>
    <message>
        <source>Added by hand</source>
        <translation>Von Hand hinzugefügt</translation>
    </message>
    <message>
        <source>A contact is created</source>
        <translation>Ein Kontakt wird angelegt</translation>
    </message>
    <message>
        <source>A contact gets a tag</source>
        <translation>Ein Kontakt erhält ein Tag</translation>
    </message>
    <message>
        <source>A deal moves to a stage</source>
        <translation>Ein Deal wechselt in eine Phase</translation>
    </message>
    <message>
        <source>A message is received</source>
        <translation>Eine Nachricht geht ein</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Active</source>
        <comment>a drip&apos;s contact</comment>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Completed</source>
        <comment>a drip&apos;s contact</comment>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Left</source>
        <comment>a drip&apos;s contact</comment>
        <translation>Ausgetreten</translation>
    </message>
    <message>
        <source>address bounced</source>
        <translation>Adresse unzustellbar</translation>
    </message>
    <message>
        <source>replied</source>
        <translation>hat geantwortet</translation>
    </message>
    <message>
        <source>deal won</source>
        <translation>Deal gewonnen</translation>
    </message>
    <message>
        <source>contact deleted</source>
        <translation>Kontakt gelöscht</translation>
    </message>
    <message>
        <source>campaign cancelled</source>
        <translation>Kampagne abgebrochen</translation>
    </message>
    <message>
        <source>Audience</source>
        <translation>Zielgruppe</translation>
    </message>
    <message>
        <source>New contact</source>
        <translation>Neuer Kontakt</translation>
    </message>
    <message>
        <source>Tag added</source>
        <translation>Tag hinzugefügt</translation>
    </message>
    <message>
        <source>Deal stage</source>
        <translation>Deal-Phase</translation>
    </message>
    <message>
        <source>Message received</source>
        <translation>Nachricht erhalten</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>Contacts: %1 entered, %2 active, %3 completed, %4 left</source>
        <translation>Kontakte: %1 hinzugekommen, %2 aktiv, %3 abgeschlossen, %4 ausgetreten</translation>
    </message>
</context>
<context>
    <name>CampaignsView</name>
    <message>
        <source>Campaigns</source>
        <translation>Kampagnen</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Neu…</translation>
    </message>
    <message>
        <source>Write a new campaign</source>
        <translation>Eine neue Kampagne schreiben</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Change the campaign (a draft or a scheduled one)</source>
        <translation>Die Kampagne ändern (einen Entwurf oder eine geplante)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the campaign (a draft or a scheduled one)</source>
        <translation>Die Kampagne löschen (einen Entwurf oder eine geplante)</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>Jetzt senden</translation>
    </message>
    <message>
        <source>Start sending to the audience now</source>
        <translation>Jetzt mit dem Senden an die Zielgruppe beginnen</translation>
    </message>
    <message>
        <source>Schedule…</source>
        <translation>Planen…</translation>
    </message>
    <message>
        <source>Choose when it is sent</source>
        <translation>Wählen, wann sie gesendet wird</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Stop sending for now; what is on its way finishes</source>
        <translation>Senden vorerst anhalten; was unterwegs ist, wird noch fertig</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Go on where it stopped</source>
        <translation>Dort weitermachen, wo sie angehalten hat</translation>
    </message>
    <message>
        <source>Cancel campaign</source>
        <translation>Kampagne abbrechen</translation>
    </message>
    <message>
        <source>Stop for good: those not sent to yet get nothing</source>
        <translation>Endgültig anhalten: Wer noch nichts erhalten hat, bekommt nichts</translation>
    </message>
    <message>
        <source>Retry failed</source>
        <translation>Fehlgeschlagene wiederholen</translation>
    </message>
    <message>
        <source>Send again to the recipients whose message failed or bounced for now</source>
        <translation>Erneut an die Empfänger senden, deren Nachricht fehlschlug oder vorübergehend unzustellbar war</translation>
    </message>
    <message>
        <source>Search campaigns…</source>
        <translation>Kampagnen suchen…</translation>
    </message>
    <message>
        <source>Search campaigns</source>
        <translation>Kampagnen suchen</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>Every channel</source>
        <translation>Jeder Kanal</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Zugestellt</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Geöffnet</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Geklickt</translation>
    </message>
    <message>
        <source>Scheduled / started</source>
        <translation>Geplant / gestartet</translation>
    </message>
    <message>
        <source>Delivery rate: delivered of sent</source>
        <translation>Zustellrate: zugestellt von gesendet</translation>
    </message>
    <message>
        <source>Open rate: opened of delivered</source>
        <translation>Öffnungsrate: geöffnet von zugestellt</translation>
    </message>
    <message>
        <source>Click rate: clicked of delivered</source>
        <translation>Klickrate: geklickt von zugestellt</translation>
    </message>
    <message>
        <source>No campaigns yet. Write one to a segment of your contacts.</source>
        <translation>Noch keine Kampagnen. Schreiben Sie eine an ein Segment Ihrer Kontakte.</translation>
    </message>
    <message>
        <source>New campaign…</source>
        <translation>Neue Kampagne…</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation>Empfänger</translation>
    </message>
    <message>
        <source>Unsubscribe list</source>
        <translation>Abmeldeliste</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>No campaign matches the search or the filters.</source>
        <translation>Keine Kampagne entspricht der Suche oder den Filtern.</translation>
    </message>
    <message>
        <source>Clear the search and filters</source>
        <translation>Suche und Filter zurücksetzen</translation>
    </message>
    <message>
        <source>Showing the newest %1 of %2 campaigns: search or filter to find the others.</source>
        <translation>Die neuesten %1 von %2 Kampagnen werden angezeigt: Suchen oder filtern Sie, um die anderen zu finden.</translation>
    </message>
    <message>
        <source>View…</source>
        <translation>Ansehen…</translation>
    </message>
    <message>
        <source>Campaign saved.</source>
        <translation>Kampagne gespeichert.</translation>
    </message>
    <message>
        <source>Delete campaign</source>
        <translation>Kampagne löschen</translation>
    </message>
    <message>
        <source>Delete the campaign “%1”?</source>
        <translation>Die Kampagne „%1“ löschen?</translation>
    </message>
    <message>
        <source>Campaign “%1” deleted.</source>
        <translation>Kampagne „%1“ gelöscht.</translation>
    </message>
    <message>
        <source>Start “%1” now? Each contact of its audience goes through its steps.</source>
        <translation>„%1“ jetzt starten? Jeder Kontakt der Zielgruppe durchläuft die Schritte.</translation>
    </message>
    <message numerus="yes">
        <source>Send “%1” now to %n contact(s) by %2? This cannot be undone.</source>
        <translation>
            <numerusform>„%1“ jetzt an %n Kontakt per %2 senden? Das kann nicht rückgängig gemacht werden.</numerusform>
            <numerusform>„%1“ jetzt an %n Kontakte per %2 senden? Das kann nicht rückgängig gemacht werden.</numerusform>
        </translation>
    </message>
    <message>
        <source>Send “%1” now? This cannot be undone.</source>
        <translation>„%1“ jetzt senden? Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Send campaign</source>
        <translation>Kampagne senden</translation>
    </message>
    <message>
        <source>“%1” is sending.</source>
        <translation>„%1“ wird gesendet.</translation>
    </message>
    <message>
        <source>Schedule “%1”</source>
        <translation>„%1“ planen</translation>
    </message>
    <message>
        <source>Send at</source>
        <translation>Senden am</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Planen</translation>
    </message>
    <message>
        <source>Don&apos;t schedule</source>
        <translation>Nicht planen</translation>
    </message>
    <message>
        <source>“%1” is a draft again.</source>
        <translation>„%1“ ist wieder ein Entwurf.</translation>
    </message>
    <message>
        <source>“%1” is sent at %2.</source>
        <translation>„%1“ wird am %2 gesendet.</translation>
    </message>
    <message>
        <source>“%1” is paused.</source>
        <translation>„%1“ ist pausiert.</translation>
    </message>
    <message>
        <source>“%1” is sending again.</source>
        <translation>„%1“ wird wieder gesendet.</translation>
    </message>
    <message>
        <source>Cancel “%1”? Those it has not sent to yet get nothing, and it cannot be started again.</source>
        <translation>„%1“ abbrechen? Wer noch nichts erhalten hat, bekommt nichts, und sie kann nicht erneut gestartet werden.</translation>
    </message>
    <message>
        <source>“%1” is cancelled.</source>
        <translation>„%1“ ist abgebrochen.</translation>
    </message>
    <message numerus="yes">
        <source>%n recipient(s) will be sent to again.</source>
        <translation>
            <numerusform>An %n Empfänger wird erneut gesendet.</numerusform>
            <numerusform>An %n Empfänger wird erneut gesendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Sending or running</source>
        <translation>Wird gesendet oder läuft</translation>
    </message>
    <message>
        <source>%1 active / %2 entered</source>
        <translation>%1 aktiv / %2 hinzugekommen</translation>
    </message>
    <message>
        <source>Sent of the audience; a drip or triggered campaign: its contacts still in it of those who entered</source>
        <translation>Gesendet von der Zielgruppe; bei einer Drip- oder ausgelösten Kampagne: ihre noch enthaltenen Kontakte von allen hinzugekommenen</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kontakte</translation>
    </message>
    <message>
        <source>Where each contact of a drip or triggered campaign is, and the steps it was sent</source>
        <translation>Wo jeder Kontakt einer Drip- oder ausgelösten Kampagne steht und welche Schritte an ihn gesendet wurden</translation>
    </message>
    <message>
        <source>“%1” is running.</source>
        <translation>„%1“ läuft.</translation>
    </message>
    <message>
        <source>“%1” is running again.</source>
        <translation>„%1“ läuft wieder.</translation>
    </message>
</context>
<context>
    <name>ChannelsPage</name>
    <message>
        <source>Channels</source>
        <translation>Kanäle</translation>
    </message>
    <message>
        <source>Connect the messaging channels. Tokens and secrets are kept in the system keychain; changes take effect at the next start.</source>
        <translation>Verbinden Sie die Nachrichtenkanäle. Tokens und Geheimnisse werden im Schlüsselbund des Systems gespeichert; Änderungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>WhatsApp Cloud API</source>
        <translation>WhatsApp Cloud API</translation>
    </message>
    <message>
        <source>Telegram bot</source>
        <translation>Telegram-Bot</translation>
    </message>
    <message>
        <source>Instagram messaging</source>
        <translation>Instagram-Nachrichten</translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation>API-Basis-URL</translation>
    </message>
    <message>
        <source>Phone number ID</source>
        <translation>Telefonnummer-ID</translation>
    </message>
    <message>
        <source>Access token</source>
        <translation>Zugriffstoken</translation>
    </message>
    <message>
        <source>App secret</source>
        <translation>App-Geheimnis</translation>
    </message>
    <message>
        <source>Verify token</source>
        <translation>Verifizierungstoken</translation>
    </message>
    <message>
        <source>Unlimited</source>
        <translation>Unbegrenzt</translation>
    </message>
    <message>
        <source> messages/s</source>
        <translation> Nachrichten/s</translation>
    </message>
    <message>
        <source>Send per second</source>
        <translation>Pro Sekunde senden</translation>
    </message>
    <message>
        <source>Bot token</source>
        <translation>Bot-Token</translation>
    </message>
    <message>
        <source>from @BotFather</source>
        <translation>von @BotFather</translation>
    </message>
    <message>
        <source>Long polling (works behind NAT)</source>
        <translation>Long Polling (funktioniert hinter NAT)</translation>
    </message>
    <message>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <source>Receive by</source>
        <translation>Empfangen per</translation>
    </message>
    <message>
        <source>Webhook secret token</source>
        <translation>Geheimes Webhook-Token</translation>
    </message>
    <message>
        <source>A-Z, a-z, 0-9, _ and -</source>
        <translation>A-Z, a-z, 0-9, _ und -</translation>
    </message>
    <message>
        <source>Register webhook at</source>
        <translation>Webhook registrieren unter</translation>
    </message>
    <message>
        <source>optional: our public https URL, registered with setWebhook at start</source>
        <translation>optional: unsere öffentliche https-URL, beim Start mit setWebhook registriert</translation>
    </message>
    <message>
        <source>Account ID</source>
        <translation>Konto-ID</translation>
    </message>
    <message>
        <source>Webhook URL for the provider</source>
        <translation>Webhook-URL für den Anbieter</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>the API server is not running</source>
        <translation>der API-Server läuft nicht</translation>
    </message>
    <message>
        <source>Not configured</source>
        <translation>Nicht eingerichtet</translation>
    </message>
    <message>
        <source>Provider down: %1</source>
        <translation>Anbieter nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <source>Configured</source>
        <translation>Eingerichtet</translation>
    </message>
    <message>
        <source>Testing is not available here.</source>
        <translation>Testen ist hier nicht verfügbar.</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Wird getestet…</translation>
    </message>
    <message>
        <source>Connection works: %1</source>
        <translation>Verbindung funktioniert: %1</translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>Verbindung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>&amp;Channels…</source>
        <translation>&amp;Kanäle…</translation>
    </message>
</context>
<context>
    <name>ContactDetailPane</name>
    <message>
        <source>Select a contact to see its details.</source>
        <translation>Wählen Sie einen Kontakt, um seine Details zu sehen.</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-Mail:</translation>
    </message>
    <message>
        <source>Phone:</source>
        <translation>Telefon:</translation>
    </message>
    <message>
        <source>Company:</source>
        <translation>Firma:</translation>
    </message>
    <message>
        <source>Position:</source>
        <translation>Position:</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>Adresse:</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <source>Lead score:</source>
        <translation>Lead-Score:</translation>
    </message>
    <message>
        <source>Created:</source>
        <translation>Erstellt:</translation>
    </message>
    <message>
        <source>Updated:</source>
        <translation>Aktualisiert:</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation>Tag entfernen</translation>
    </message>
    <message>
        <source>New tags, comma separated</source>
        <translation>Neue Tags, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>Tag hinzufügen</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <source>Write a note…</source>
        <translation>Notiz schreiben…</translation>
    </message>
    <message>
        <source>Add note</source>
        <translation>Notiz hinzufügen</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Select and press Remove tag (or Delete) to remove</source>
        <translation>Auswählen und „Tag entfernen“ (oder Entf) drücken, um zu entfernen</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source> — due %1</source>
        <translation> — fällig %1</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Deals</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Unterhaltungen</translation>
    </message>
    <message>
        <source>Contact created%1</source>
        <translation>Kontakt erstellt%1</translation>
    </message>
    <message>
        <source> (from %1)</source>
        <translation> (aus %1)</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Notiz: %1</translation>
    </message>
    <message>
        <source>%1 — %2 — %3</source>
        <translation>%1 — %2 — %3</translation>
    </message>
    <message>
        <source> · closes %1</source>
        <translation> · Abschluss %1</translation>
    </message>
    <message>
        <source>Double-click to open the deal</source>
        <translation>Doppelklicken, um den Deal zu öffnen</translation>
    </message>
    <message>
        <source>Deal created: %1</source>
        <translation>Deal erstellt: %1</translation>
    </message>
    <message>
        <source>%1 moved from %2 to %3</source>
        <translation>%1 von %2 nach %3 verschoben</translation>
    </message>
    <message>
        <source>Call (%1): %2</source>
        <translation>Anruf (%1): %2</translation>
    </message>
    <message>
        <source>Meeting (%1): %2</source>
        <translation>Termin (%1): %2</translation>
    </message>
    <message>
        <source>E-mail (%1): %2</source>
        <translation>E-Mail (%1): %2</translation>
    </message>
    <message>
        <source>Note on %1: %2</source>
        <translation>Notiz zu %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n ungelesen</numerusform>
            <numerusform>%n ungelesen</numerusform>
        </translation>
    </message>
    <message>
        <source>Double-click to open the conversation in the inbox</source>
        <translation>Doppelklicken, um die Unterhaltung im Posteingang zu öffnen</translation>
    </message>
    <message>
        <source>Conversation started on %1</source>
        <translation>Unterhaltung begonnen über %1</translation>
    </message>
    <message>
        <source>Message sent on %1: %2</source>
        <translation>Nachricht gesendet über %1: %2</translation>
    </message>
    <message>
        <source>Message received on %1: %2</source>
        <translation>Nachricht empfangen über %1: %2</translation>
    </message>
    <message>
        <source>Task created: %1</source>
        <translation>Aufgabe erstellt: %1</translation>
    </message>
    <message>
        <source>Task done: %1</source>
        <translation>Aufgabe erledigt: %1</translation>
    </message>
    <message>
        <source>%1 started in %2</source>
        <translation>%1 begonnen in %2</translation>
    </message>
    <message>
        <source>Nothing has happened with this contact yet.</source>
        <translation>Mit diesem Kontakt ist noch nichts geschehen.</translation>
    </message>
    <message>
        <source>No notes yet: write one below.</source>
        <translation>Noch keine Notizen: Schreiben Sie unten eine.</translation>
    </message>
    <message>
        <source>Note</source>
        <comment>a short tab title</comment>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Deal</source>
        <comment>a short tab title</comment>
        <translation>Deal</translation>
    </message>
    <message>
        <source>Chat</source>
        <comment>a short tab title</comment>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Task</source>
        <comment>a short tab title</comment>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>New deal…</source>
        <translation>Neuer Deal…</translation>
    </message>
    <message>
        <source>A deal with this contact, yours unless you give it to someone else</source>
        <translation>Ein Deal mit diesem Kontakt – Ihnen zugeordnet, sofern Sie ihn niemand anderem geben</translation>
    </message>
    <message>
        <source>Send a message</source>
        <translation>Nachricht senden</translation>
    </message>
    <message>
        <source>New task…</source>
        <translation>Neue Aufgabe…</translation>
    </message>
    <message>
        <source>A task about this contact, with a reminder if you want one</source>
        <translation>Eine Aufgabe zu diesem Kontakt, auf Wunsch mit Erinnerung</translation>
    </message>
    <message>
        <source>No deals with this contact yet: New deal adds one.</source>
        <translation>Noch keine Deals mit diesem Kontakt: „Neuer Deal“ fügt einen hinzu.</translation>
    </message>
    <message>
        <source>No conversations yet. Messages from this contact&apos;s phone or e-mail appear here; Send a message starts one.</source>
        <translation>Noch keine Unterhaltungen. Nachrichten von Telefon oder E-Mail dieses Kontakts erscheinen hier; „Nachricht senden“ beginnt eine.</translation>
    </message>
    <message>
        <source>No tasks for this contact yet: New task adds one, with a reminder.</source>
        <translation>Noch keine Aufgaben für diesen Kontakt: „Neue Aufgabe“ fügt eine hinzu, mit Erinnerung.</translation>
    </message>
    <message>
        <source>WhatsApp to %1</source>
        <translation>WhatsApp an %1</translation>
    </message>
    <message>
        <source>No channel to write on: add a phone number for WhatsApp</source>
        <translation>Kein Kanal zum Schreiben: Fügen Sie eine Telefonnummer für WhatsApp hinzu</translation>
    </message>
    <message>
        <source>Double-click to open the task</source>
        <translation>Doppelklicken, um die Aufgabe zu öffnen</translation>
    </message>
    <message>
        <source>New tags</source>
        <translation>Neue Tags</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>Tags:</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Address, source, lead score and dates</source>
        <translation>Adresse, Quelle, Lead-Score und Daten</translation>
    </message>
</context>
<context>
    <name>ContactDialog</name>
    <message>
        <source>New contact</source>
        <translation>Neuer Kontakt</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>%1 bearbeiten</translation>
    </message>
    <message>
        <source>First name:</source>
        <translation>Vorname:</translation>
    </message>
    <message>
        <source>Last name:</source>
        <translation>Nachname:</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-Mail:</translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <source>Phone:</source>
        <translation>Telefon:</translation>
    </message>
    <message>
        <source>+90 532 123 45 67</source>
        <translation>+49 151 1234 5678</translation>
    </message>
    <message>
        <source>Company:</source>
        <translation>Firma:</translation>
    </message>
    <message>
        <source>Position:</source>
        <translation>Position:</translation>
    </message>
    <message>
        <source>Street:</source>
        <translation>Straße:</translation>
    </message>
    <message>
        <source>City:</source>
        <translation>Ort:</translation>
    </message>
    <message>
        <source>Country:</source>
        <translation>Land:</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>Tags:</translation>
    </message>
    <message>
        <source>comma separated, e.g. vip, istanbul</source>
        <translation>durch Kommas getrennt, z. B. vip, berlin</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <source>Lead score:</source>
        <translation>Lead-Score:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>The contact could not be saved: %1</source>
        <translation>Der Kontakt konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>another contact</source>
        <translation>einem anderen Kontakt</translation>
    </message>
    <message>
        <source>This phone number already belongs to %1.</source>
        <translation>Diese Telefonnummer gehört bereits zu %1.</translation>
    </message>
    <message>
        <source>This e-mail address already belongs to %1.</source>
        <translation>Diese E-Mail-Adresse gehört bereits zu %1.</translation>
    </message>
    <message>
        <source>already belongs to %1</source>
        <translation>gehört bereits zu %1</translation>
    </message>
    <message>
        <source>needs its country code (+90 532 …), or set the country of local numbers in Settings → Contacts</source>
        <translation>braucht die Ländervorwahl (+49 151 …), oder legen Sie das Land lokaler Nummern unter Einstellungen → Kontakte fest</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>ContactTableModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Firma</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
</context>
<context>
    <name>ContactsSettingsPage</name>
    <message>
        <source>Contacts</source>
        <translation>Kontakte</translation>
    </message>
    <message>
        <source>C&amp;ontacts…</source>
        <translation>K&amp;ontakte…</translation>
    </message>
    <message>
        <source>Phone numbers</source>
        <translation>Telefonnummern</translation>
    </message>
    <message>
        <source>Numbers written without + are read as numbers of this country and stored in their international form, in the window, the API and incoming webhooks alike. Empty: every number needs its leading +.</source>
        <translation>Nummern ohne + werden als Nummern dieses Landes gelesen und in ihrer internationalen Form gespeichert – im Fenster, in der API und bei eingehenden Webhooks gleichermaßen. Leer: Jede Nummer braucht ihr führendes +.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Use %1 (+%2)</source>
        <translation>%1 verwenden (+%2)</translation>
    </message>
    <message>
        <source>Country calling code:</source>
        <translation>Ländervorwahl:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Example: %1 is stored as %2.</source>
        <translation>Beispiel: %1 wird als %2 gespeichert.</translation>
    </message>
    <message>
        <source>A country calling code has 1 to 3 digits, e.g. 90.</source>
        <translation>Eine Ländervorwahl hat 1 bis 3 Ziffern, z. B. 49.</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Konnte nicht speichern: %1</translation>
    </message>
    <message>
        <source>Saved: phone numbers need their leading +.</source>
        <translation>Gespeichert: Telefonnummern brauchen ihr führendes +.</translation>
    </message>
    <message>
        <source>Saved: numbers without + are read as +%1 numbers.</source>
        <translation>Gespeichert: Nummern ohne + werden als +%1-Nummern gelesen.</translation>
    </message>
    <message>
        <source>Example: %1 is refused; +90 532 123 45 67 is taken as written (a number with + is kept as typed).</source>
        <translation>Beispiel: %1 wird abgelehnt; +49 151 1234 5678 wird so übernommen, wie geschrieben (eine Nummer mit + bleibt wie eingegeben).</translation>
    </message>
</context>
<context>
    <name>ContactsView</name>
    <message>
        <source>Search name, e-mail, phone…</source>
        <translation>Name, E-Mail, Telefon…</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Create a contact</source>
        <translation>Einen Kontakt anlegen</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Bearbeiten</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Could not read contacts: %1</source>
        <translation>Kontakte konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>All tags</source>
        <translation>Alle Tags</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>1 contact</source>
        <translation>1 Kontakt</translation>
    </message>
    <message>
        <source>%1 contacts</source>
        <translation>%1 Kontakte</translation>
    </message>
    <message>
        <source>Edit contact</source>
        <translation>Kontakt bearbeiten</translation>
    </message>
    <message>
        <source>Delete contact</source>
        <translation>Kontakt löschen</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>Wird gezählt…</translation>
    </message>
    <message>
        <source>Delete %1? Its notes and tags are deleted too.</source>
        <translation>%1 löschen? Notizen und Tags werden ebenfalls gelöscht.</translation>
    </message>
    <message>
        <source>%1 deleted.</source>
        <translation>%1 gelöscht.</translation>
    </message>
    <message>
        <source>No contact matches “%1”: change or clear the search.</source>
        <translation>Kein Kontakt entspricht „%1“: Ändern oder leeren Sie die Suche.</translation>
    </message>
    <message>
        <source>No contacts in this list. Choose All contacts or another tag to see more.</source>
        <translation>Keine Kontakte in dieser Liste. Wählen Sie „Alle Kontakte“ oder ein anderes Tag, um mehr zu sehen.</translation>
    </message>
    <message>
        <source>Search all contacts</source>
        <translation>Alle Kontakte durchsuchen</translation>
    </message>
    <message>
        <source>segment “%1”, tag “%2”</source>
        <translation>Segment „%1“, Tag „%2“</translation>
    </message>
    <message>
        <source>segment “%1”</source>
        <translation>Segment „%1“</translation>
    </message>
    <message>
        <source>tag “%1”</source>
        <translation>Tag „%1“</translation>
    </message>
    <message>
        <source>Searching in %1 only.</source>
        <translation>Suche nur in %1.</translation>
    </message>
    <message numerus="yes">
        <source>Searching in %1 only (%n in all contacts).</source>
        <translation>
            <numerusform>Suche nur in %1 (%n in allen Kontakten).</numerusform>
            <numerusform>Suche nur in %1 (%n in allen Kontakten).</numerusform>
        </translation>
    </message>
    <message>
        <source>Search contacts</source>
        <translation>Kontakte suchen</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kontakte</translation>
    </message>
    <message>
        <source>No contact in %1 matches “%2”.</source>
        <translation>Kein Kontakt in %1 entspricht „%2“.</translation>
    </message>
    <message>
        <source>No contacts yet. Add the people you sell to; a first message on a channel, or a tool using the API, adds contacts too.</source>
        <translation>Noch keine Kontakte. Fügen Sie die Menschen hinzu, an die Sie verkaufen; auch eine erste Nachricht auf einem Kanal oder ein Programm über die API legt Kontakte an.</translation>
    </message>
    <message>
        <source>Show all contacts</source>
        <translation>Alle Kontakte anzeigen</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Suche leeren</translation>
    </message>
    <message>
        <source>New contact…</source>
        <translation>Neuer Kontakt…</translation>
    </message>
    <message>
        <source>Duplicates…</source>
        <translation>Duplikate…</translation>
    </message>
    <message>
        <source>Find contacts that look like one person and merge them</source>
        <translation>Kontakte finden, die nach derselben Person aussehen, und sie zusammenführen</translation>
    </message>
    <message>
        <source>Undo merge</source>
        <translation>Zusammenführung rückgängig machen</translation>
    </message>
    <message>
        <source>%1 contacts saved to %2.</source>
        <translation>%1 Kontakte in %2 gespeichert.</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 wurde nicht gespeichert: %2</translation>
    </message>
    <message>
        <source>A contact with the same e-mail or phone exists:</source>
        <translation>Wenn ein Kontakt mit derselben E-Mail-Adresse oder Telefonnummer existiert:</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Export contacts to CSV</source>
        <translation>Kontakte als CSV exportieren</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Full name (first and last)</source>
        <translation>Vollständiger Name (Vor- und Nachname)</translation>
    </message>
    <message>
        <source>Import contacts from a CSV file</source>
        <translation>Kontakte aus einer CSV-Datei importieren</translation>
    </message>
    <message>
        <source>Import contacts</source>
        <translation>Kontakte importieren</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>Import…</translation>
    </message>
    <message>
        <source>Save the contacts the search and filters show as a CSV file</source>
        <translation>Die Kontakte, die Suche und Filter anzeigen, als CSV-Datei speichern</translation>
    </message>
    <message>
        <source>contacts.csv</source>
        <translation>kontakte.csv</translation>
    </message>
    <message>
        <source>Saving %1…</source>
        <translation>%1 wird gespeichert…</translation>
    </message>
</context>
<context>
    <name>CreateApiKeyDialog</name>
    <message>
        <source>Create API key</source>
        <translation>API-Schlüssel erstellen</translation>
    </message>
    <message>
        <source>e.g. Import script</source>
        <translation>z. B. Importskript</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>Scopes:</source>
        <translation>Berechtigungen:</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Erstellen</translation>
    </message>
    <message>
        <source>Choose at least one scope.</source>
        <translation>Wählen Sie mindestens eine Berechtigung.</translation>
    </message>
    <message>
        <source>Everything (*)</source>
        <translation>Alles (*)</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kontakte</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Deals</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Unterhaltungen</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Campaigns</source>
        <translation>Kampagnen</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>read</source>
        <translation>lesen</translation>
    </message>
    <message>
        <source>write</source>
        <translation>schreiben</translation>
    </message>
    <message>
        <source>read and write</source>
        <translation>lesen und schreiben</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1: %2 (%3)</translation>
    </message>
</context>
<context>
    <name>DealCardDelegate</name>
    <message>
        <source>No contact</source>
        <translation>Kein Kontakt</translation>
    </message>
    <message>
        <source>closes %1</source>
        <translation>Abschluss %1</translation>
    </message>
</context>
<context>
    <name>DealColumnModel</name>
    <message>
        <source>%1
%2 %3 · %4%</source>
        <translation>%1
%2 %3 · %4%</translation>
    </message>
    <message>
        <source>Contact: %1</source>
        <translation>Kontakt: %1</translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation>Nicht zugewiesen</translation>
    </message>
    <message>
        <source>Owner: %1</source>
        <translation>Verantwortlich: %1</translation>
    </message>
    <message>
        <source>Expected close: %1</source>
        <translation>Erwarteter Abschluss: %1</translation>
    </message>
</context>
<context>
    <name>DealDetailDialog</name>
    <message>
        <source>Activity</source>
        <translation>Aktivität</translation>
    </message>
    <message>
        <source>This deal was deleted.</source>
        <translation>Dieser Deal wurde gelöscht.</translation>
    </message>
    <message>
        <source>Deal: %1</source>
        <translation>Deal: %1</translation>
    </message>
    <message>
        <source>Stage: %1 · probability %2%</source>
        <translation>Phase: %1 · Wahrscheinlichkeit %2%</translation>
    </message>
    <message>
        <source>Contact: %1</source>
        <translation>Kontakt: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Owner: %1</source>
        <translation>Verantwortlich: %1</translation>
    </message>
    <message>
        <source>unassigned</source>
        <translation>nicht zugewiesen</translation>
    </message>
    <message>
        <source>Expected close: %1</source>
        <translation>Erwarteter Abschluss: %1</translation>
    </message>
    <message>
        <source>Lost: %1 %2</source>
        <translation>Verloren: %1 %2</translation>
    </message>
    <message>
        <source>No activity for a while: this deal is rotting.</source>
        <translation>Seit einer Weile keine Aktivität: Dieser Deal verstaubt.</translation>
    </message>
    <message>
        <source>Created in %1</source>
        <translation>Erstellt in %1</translation>
    </message>
    <message>
        <source>Moved %1 → %2</source>
        <translation>Verschoben %1 → %2</translation>
    </message>
    <message>
        <source>Write the note first.</source>
        <translation>Schreiben Sie zuerst die Notiz.</translation>
    </message>
    <message>
        <source>Add task…</source>
        <translation>Aufgabe hinzufügen…</translation>
    </message>
    <message>
        <source>Edit deal…</source>
        <translation>Deal bearbeiten…</translation>
    </message>
    <message>
        <source>Delete deal…</source>
        <translation>Deal löschen…</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>✓ %1</source>
        <translation>✓ %1</translation>
    </message>
    <message>
        <source>%1 · due %2</source>
        <translation>%1 · fällig %2</translation>
    </message>
    <message>
        <source>No tasks yet.</source>
        <translation>Noch keine Aufgaben.</translation>
    </message>
    <message>
        <source>Delete deal</source>
        <translation>Deal löschen</translation>
    </message>
    <message>
        <source>Delete the deal “%1” with its activities? Its tasks are kept, unlinked.</source>
        <translation>Den Deal „%1“ mit seinen Aktivitäten löschen? Seine Aufgaben bleiben erhalten, ohne Verknüpfung.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>A note, or what was said in a call or meeting…</source>
        <translation>Eine Notiz oder was in einem Anruf oder Termin gesagt wurde…</translation>
    </message>
    <message>
        <source>Add to activity</source>
        <translation>Zur Aktivität hinzufügen</translation>
    </message>
    <message>
        <source>Value: %1</source>
        <translation>Wert: %1</translation>
    </message>
    <message>
        <source>Expected close: %1 (past)</source>
        <translation>Erwarteter Abschluss: %1 (überschritten)</translation>
    </message>
</context>
<context>
    <name>DealEditDialog</name>
    <message>
        <source>New deal</source>
        <translation>Neuer Deal</translation>
    </message>
    <message>
        <source>Edit deal: %1</source>
        <translation>Deal bearbeiten: %1</translation>
    </message>
    <message>
        <source>What is being sold, to whom?</source>
        <translation>Was wird an wen verkauft?</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>Value:</source>
        <translation>Wert:</translation>
    </message>
    <message>
        <source>Pipeline:</source>
        <translation>Pipeline:</translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation>Phase:</translation>
    </message>
    <message>
        <source>Probability:</source>
        <translation>Wahrscheinlichkeit:</translation>
    </message>
    <message>
        <source>Contact:</source>
        <translation>Kontakt:</translation>
    </message>
    <message>
        <source>(unassigned)</source>
        <translation>(nicht zugewiesen)</translation>
    </message>
    <message>
        <source>Owner:</source>
        <translation>Verantwortlich:</translation>
    </message>
    <message>
        <source>Expected to close on</source>
        <translation>Voraussichtlicher Abschluss am</translation>
    </message>
    <message>
        <source>Close date:</source>
        <translation>Abschlussdatum:</translation>
    </message>
    <message>
        <source>Notes about this deal</source>
        <translation>Notizen zu diesem Deal</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>Notizen:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>%1 %</source>
        <comment>a percentage</comment>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Value</source>
        <comment>the value field, as a screen reader names it</comment>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Name</source>
        <comment>the name field, as a screen reader names it</comment>
        <translation>Name</translation>
    </message>
</context>
<context>
    <name>DealListModel</name>
    <message>
        <source>Deal</source>
        <translation>Deal</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kontakt</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Verantwortlich</translation>
    </message>
    <message>
        <source>Expected close</source>
        <translation>Erwarteter Abschluss</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>Geändert</translation>
    </message>
</context>
<context>
    <name>DealText</name>
    <message>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation>Wettbewerber</translation>
    </message>
    <message>
        <source>Timing</source>
        <translation>Zeitpunkt</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>Budget</translation>
    </message>
    <message>
        <source>No response</source>
        <translation>Keine Antwort</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstiges</translation>
    </message>
    <message>
        <source>Lead</source>
        <translation>Lead</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kontakt</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>Angebot</translation>
    </message>
    <message>
        <source>Negotiation</source>
        <translation>Verhandlung</translation>
    </message>
    <message>
        <source>Won</source>
        <translation>Gewonnen</translation>
    </message>
    <message>
        <source>Lost</source>
        <translation>Verloren</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Anruf</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Termin</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Stage change</source>
        <translation>Phasenwechsel</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Sales</source>
        <translation>Vertrieb</translation>
    </message>
</context>
<context>
    <name>EmailPage</name>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>&amp;E-mail…</source>
        <translation>&amp;E-Mail…</translation>
    </message>
    <message>
        <source>The mail server campaigns send e-mail through. The password and the DKIM key are kept in the system keychain; changes take effect at the next start.</source>
        <translation>Der Mailserver, über den Kampagnen E-Mails senden. Das Passwort und der DKIM-Schlüssel werden im Schlüsselbund des Systems gespeichert; Änderungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>SMTP server</source>
        <translation>SMTP-Server</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>e.g. smtp.ornek.com.tr</source>
        <translation>z. B. smtp.beispiel.de</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>STARTTLS (usually port 587)</source>
        <translation>STARTTLS (meist Port 587)</translation>
    </message>
    <message>
        <source>TLS from the start (usually port 465)</source>
        <translation>TLS von Anfang an (meist Port 465)</translation>
    </message>
    <message>
        <source>None (only a server on this machine)</source>
        <translation>Keine (nur ein Server auf diesem Rechner)</translation>
    </message>
    <message>
        <source>Security</source>
        <translation>Sicherheit</translation>
    </message>
    <message>
        <source>Check the server&apos;s certificate</source>
        <translation>Zertifikat des Servers prüfen</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>empty: no sign-in</source>
        <translation>leer: keine Anmeldung</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Absender</translation>
    </message>
    <message>
        <source>Örnek Ltd. &lt;bulten@ornek.com.tr&gt;</source>
        <translation>Beispiel GmbH &lt;newsletter@beispiel.de&gt;</translation>
    </message>
    <message>
        <source>DKIM signing</source>
        <translation>DKIM-Signatur</translation>
    </message>
    <message>
        <source>Signed mail reaches inboxes more often. Publish the public key as a TXT record at &lt;selector&gt;._domainkey.&lt;domain&gt;; leave these empty to send unsigned.</source>
        <translation>Signierte Mails erreichen öfter den Posteingang. Veröffentlichen Sie den öffentlichen Schlüssel als TXT-Eintrag unter &lt;selector&gt;._domainkey.&lt;domain&gt;; lassen Sie diese Felder leer, um unsigniert zu senden.</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Domain</translation>
    </message>
    <message>
        <source>e.g. ornek.com.tr</source>
        <translation>z. B. beispiel.de</translation>
    </message>
    <message>
        <source>Selector</source>
        <translation>Selektor</translation>
    </message>
    <message>
        <source>e.g. liaison</source>
        <translation>z. B. liaison</translation>
    </message>
    <message>
        <source>Private key (PEM)</source>
        <translation>Privater Schlüssel (PEM)</translation>
    </message>
    <message>
        <source>Remove the stored key</source>
        <translation>Gespeicherten Schlüssel entfernen</translation>
    </message>
    <message>
        <source>Without encryption the password and the mail would cross the network in clear: choose STARTTLS or TLS, or a server on this machine (localhost).</source>
        <translation>Ohne Verschlüsselung würden Passwort und Mail im Klartext durchs Netz gehen: Wählen Sie STARTTLS oder TLS oder einen Server auf diesem Rechner (localhost).</translation>
    </message>
    <message>
        <source>The host is a name or an address, without spaces or slashes.</source>
        <translation>Der Host ist ein Name oder eine Adresse, ohne Leerzeichen oder Schrägstriche.</translation>
    </message>
    <message>
        <source>Write the From address as Name &lt;address@domain&gt; or address@domain.</source>
        <translation>Schreiben Sie die Absenderadresse als Name &lt;adresse@domain&gt; oder adresse@domain.</translation>
    </message>
    <message>
        <source>Give the From address the mail is sent from.</source>
        <translation>Geben Sie die Absenderadresse an, von der die Mail gesendet wird.</translation>
    </message>
    <message>
        <source>DKIM needs the domain, the selector and the private key, or none of them.</source>
        <translation>DKIM braucht die Domain, den Selektor und den privaten Schlüssel – oder nichts davon.</translation>
    </message>
    <message>
        <source>The DKIM key is a private key in PEM form (-----BEGIN PRIVATE KEY-----).</source>
        <translation>Der DKIM-Schlüssel ist ein privater Schlüssel im PEM-Format (-----BEGIN PRIVATE KEY-----).</translation>
    </message>
    <message>
        <source>The key pasted above is stored when you save.</source>
        <translation>Der oben eingefügte Schlüssel wird beim Speichern gespeichert.</translation>
    </message>
    <message>
        <source>No key is stored.</source>
        <translation>Kein Schlüssel gespeichert.</translation>
    </message>
    <message>
        <source>A key is stored; paste another to replace it.</source>
        <translation>Ein Schlüssel ist gespeichert; fügen Sie einen anderen ein, um ihn zu ersetzen.</translation>
    </message>
</context>
<context>
    <name>ErrorText</name>
    <message>
        <source>The file is too large: at most %1</source>
        <translation>Die Datei ist zu groß: höchstens %1</translation>
    </message>
    <message>
        <source>The channel cannot send now (%1)</source>
        <translation>Der Kanal kann gerade nicht senden (%1)</translation>
    </message>
    <message numerus="yes">
        <source>Too many messages on this channel: try again in %n second(s)</source>
        <translation>
            <numerusform>Zu viele Nachrichten auf diesem Kanal: Versuchen Sie es in %n Sekunde erneut</numerusform>
            <numerusform>Zu viele Nachrichten auf diesem Kanal: Versuchen Sie es in %n Sekunden erneut</numerusform>
        </translation>
    </message>
    <message>
        <source>The database server cannot be reached at the moment; nothing was changed. Liaison connects again by itself: try again shortly.</source>
        <translation>Der Datenbankserver ist im Moment nicht erreichbar; nichts wurde geändert. Liaison verbindet sich von selbst neu: Versuchen Sie es gleich noch einmal.</translation>
    </message>
</context>
<context>
    <name>FieldErrors</name>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>Correct the %n field(s) marked below.</source>
        <translation>
            <numerusform>Korrigieren Sie das unten markierte Feld.</numerusform>
            <numerusform>Korrigieren Sie die %n unten markierten Felder.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FieldName</name>
    <message>
        <source>First name</source>
        <translation>Vorname</translation>
    </message>
    <message>
        <source>Last name</source>
        <translation>Nachname</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Firma</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Street</source>
        <translation>Straße</translation>
    </message>
    <message>
        <source>City</source>
        <translation>Ort</translation>
    </message>
    <message>
        <source>Country</source>
        <translation>Land</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Lead score</source>
        <translation>Lead-Score</translation>
    </message>
    <message>
        <source>Custom fields</source>
        <translation>Benutzerdefinierte Felder</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>Währung</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kontakt</translation>
    </message>
    <message>
        <source>Deal</source>
        <translation>Deal</translation>
    </message>
    <message>
        <source>Expected close date</source>
        <translation>Erwartetes Abschlussdatum</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Verantwortlich</translation>
    </message>
    <message>
        <source>Lost reason</source>
        <translation>Verlustgrund</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation>Wettbewerber</translation>
    </message>
    <message>
        <source>Closed value</source>
        <translation>Abschlusswert</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Fälligkeitsdatum</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Assignee</source>
        <translation>Zuständig</translation>
    </message>
    <message>
        <source>Reminder</source>
        <translation>Erinnerung</translation>
    </message>
    <message>
        <source>Reminder time</source>
        <translation>Erinnerungszeit</translation>
    </message>
    <message>
        <source>Repeat</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Repeat frequency</source>
        <translation>Wiederholungshäufigkeit</translation>
    </message>
    <message>
        <source>Repeat interval</source>
        <translation>Wiederholungsintervall</translation>
    </message>
    <message>
        <source>Repeat days</source>
        <translation>Wiederholungstage</translation>
    </message>
    <message>
        <source>Repeat end date</source>
        <translation>Enddatum der Wiederholung</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Regeln</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Übereinstimmung</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>Geheimnis</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>Phasen</translation>
    </message>
    <message>
        <source>Days until stale</source>
        <translation>Tage bis veraltet</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>Sentiment</source>
        <translation>Stimmung</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Last message</source>
        <translation>Letzte Nachricht</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Rule %1</source>
        <translation>Regel %1</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Betreff</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Audience</source>
        <translation>Zielgruppe</translation>
    </message>
    <message>
        <source>Send at</source>
        <translation>Senden am</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>Template language</source>
        <translation>Sprache der Vorlage</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation>Auslöser</translation>
    </message>
    <message>
        <source>Addresses</source>
        <translation>Adressen</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Contacts to merge</source>
        <translation>Zusammenzuführende Kontakte</translation>
    </message>
</context>
<context>
    <name>InboxComposer</name>
    <message>
        <source>Attach a file (or drop one onto the conversation)</source>
        <translation>Datei anhängen (oder auf die Unterhaltung ziehen)</translation>
    </message>
    <message>
        <source>Attach a file</source>
        <translation>Datei anhängen</translation>
    </message>
    <message>
        <source>Template…</source>
        <translation>Vorlage…</translation>
    </message>
    <message>
        <source>Send an approved message template</source>
        <translation>Eine genehmigte Nachrichtenvorlage senden</translation>
    </message>
    <message>
        <source>Outside the 24-hour window: send a template</source>
        <translation>Außerhalb des 24-Stunden-Fensters: Senden Sie eine Vorlage</translation>
    </message>
    <message>
        <source>WhatsApp accepts free text only within 24 hours of the customer&apos;s last message; after that it refuses anything but an approved template.</source>
        <translation>WhatsApp akzeptiert freien Text nur innerhalb von 24 Stunden nach der letzten Nachricht des Kunden; danach lehnt es alles außer einer genehmigten Vorlage ab.</translation>
    </message>
    <message>
        <source>✕</source>
        <translation>✕</translation>
    </message>
    <message>
        <source>Remove the attachment</source>
        <translation>Anhang entfernen</translation>
    </message>
    <message>
        <source>Do not send the template</source>
        <translation>Vorlage nicht senden</translation>
    </message>
    <message>
        <source>Cannot attach %1: not a readable file</source>
        <translation>%1 kann nicht angehängt werden: keine lesbare Datei</translation>
    </message>
    <message>
        <source>Cannot attach %1: the file is empty</source>
        <translation>%1 kann nicht angehängt werden: Die Datei ist leer</translation>
    </message>
    <message>
        <source>%1 is too large to send (%2): at most %3</source>
        <translation>%1 ist zu groß zum Senden (%2): höchstens %3</translation>
    </message>
    <message>
        <source>document</source>
        <translation>Dokument</translation>
    </message>
    <message>
        <source>image</source>
        <translation>Bild</translation>
    </message>
    <message>
        <source>video</source>
        <translation>Video</translation>
    </message>
    <message>
        <source>audio</source>
        <translation>Audio</translation>
    </message>
    <message>
        <source>Choose a template</source>
        <translation>Vorlage wählen</translation>
    </message>
    <message>
        <source>%1 (%2)
%3</source>
        <translation>%1 (%2)
%3</translation>
    </message>
    <message>
        <source>Use template</source>
        <translation>Vorlage verwenden</translation>
    </message>
    <message>
        <source>Template %1 (%2)</source>
        <translation>Vorlage %1 (%2)</translation>
    </message>
    <message>
        <source>Value of {{%1}}</source>
        <translation>Wert von {{%1}}</translation>
    </message>
    <message>
        <source>{{%1}}</source>
        <translation>{{%1}}</translation>
    </message>
    <message>
        <source>Quick-reply buttons:</source>
        <translation>Schnellantwort-Schaltflächen:</translation>
    </message>
    <message>
        <source>Sending files is not available here</source>
        <translation>Dateien senden ist hier nicht verfügbar</translation>
    </message>
    <message>
        <source>Sending templates is not available here</source>
        <translation>Vorlagen senden ist hier nicht verfügbar</translation>
    </message>
    <message>
        <source>Fill in every placeholder of the template: {{%1}} is empty</source>
        <translation>Füllen Sie jeden Platzhalter der Vorlage aus: {{%1}} ist leer</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>Anhängen…</translation>
    </message>
    <message>
        <source>Attachment: %1 · %2 · %3</source>
        <translation>Anhang: %1 · %2 · %3</translation>
    </message>
    <message>
        <source>No approved templates yet: an admin adds them in Settings → Templates.</source>
        <translation>Noch keine genehmigten Vorlagen: Ein Admin fügt sie unter Einstellungen → Vorlagen hinzu.</translation>
    </message>
</context>
<context>
    <name>InboxContactPanel</name>
    <message>
        <source>Open contact…</source>
        <translation>Kontakt öffnen…</translation>
    </message>
    <message>
        <source>Open deal…</source>
        <translation>Deal öffnen…</translation>
    </message>
    <message>
        <source>Open task…</source>
        <translation>Aufgabe öffnen…</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Deals</translation>
    </message>
    <message>
        <source>Open tasks</source>
        <translation>Offene Aufgaben</translation>
    </message>
    <message>
        <source>No conversation selected</source>
        <translation>Keine Unterhaltung ausgewählt</translation>
    </message>
    <message>
        <source>Contact not found</source>
        <translation>Kontakt nicht gefunden</translation>
    </message>
    <message>
        <source>Phone: %1</source>
        <translation>Telefon: %1</translation>
    </message>
    <message>
        <source>E-mail: %1</source>
        <translation>E-Mail: %1</translation>
    </message>
    <message>
        <source>Company: %1</source>
        <translation>Firma: %1</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 %4</source>
        <translation>%1 · %2 · %3 %4</translation>
    </message>
    <message>
        <source>%1 · due %2</source>
        <translation>%1 · fällig %2</translation>
    </message>
    <message>
        <source>No deals.</source>
        <translation>Keine Deals.</translation>
    </message>
    <message>
        <source>No open tasks.</source>
        <translation>Keine offenen Aufgaben.</translation>
    </message>
    <message>
        <source>Contact details</source>
        <translation>Kontaktdaten</translation>
    </message>
    <message>
        <source>Create contact…</source>
        <translation>Kontakt anlegen…</translation>
    </message>
    <message>
        <source>Save who this visitor is as a contact; the conversation becomes theirs</source>
        <translation>Speichern Sie, wer dieser Besucher ist, als Kontakt; die Unterhaltung gehört dann ihm</translation>
    </message>
    <message>
        <source>Create contact for %1</source>
        <translation>Kontakt für %1 anlegen</translation>
    </message>
    <message>
        <source>Anonymous web visitor</source>
        <translation>Anonymer Website-Besucher</translation>
    </message>
    <message>
        <source>%1 has not given a name, e-mail address or phone number yet. Create a contact when you know who they are.</source>
        <translation>%1 hat noch keinen Namen, keine E-Mail-Adresse und keine Telefonnummer angegeben. Legen Sie einen Kontakt an, wenn Sie wissen, wer es ist.</translation>
    </message>
</context>
<context>
    <name>InboxView</name>
    <message>
        <source>Inbox</source>
        <translation>Posteingang</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Alle Status</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>Geschlossen</translation>
    </message>
    <message>
        <source>All channels</source>
        <translation>Alle Kanäle</translation>
    </message>
    <message>
        <source>WhatsApp</source>
        <translation>WhatsApp</translation>
    </message>
    <message>
        <source>Instagram</source>
        <translation>Instagram</translation>
    </message>
    <message>
        <source>Telegram</source>
        <translation>Telegram</translation>
    </message>
    <message>
        <source>Web widget</source>
        <translation>Web-Widget</translation>
    </message>
    <message>
        <source>Select a conversation</source>
        <translation>Wählen Sie eine Unterhaltung</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>Wieder öffnen</translation>
    </message>
    <message>
        <source>Assign to me</source>
        <translation>Mir zuweisen</translation>
    </message>
    <message>
        <source>Write a reply…</source>
        <translation>Antwort schreiben…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>No user account: create one with “liaison user add”</source>
        <translation>Kein Benutzerkonto: Legen Sie eines mit „liaison user add“ an</translation>
    </message>
    <message>
        <source>Assign to %1</source>
        <translation>%1 zuweisen</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(kein Name)</translation>
    </message>
    <message>
        <source>%1 (%2 unread)</source>
        <translation>%1 (%2 ungelesen)</translation>
    </message>
    <message>
        <source>assigned to %1</source>
        <translation>zugewiesen an %1</translation>
    </message>
    <message>
        <source>Assigned to me</source>
        <translation>Mir zugewiesen</translation>
    </message>
    <message>
        <source>Unread</source>
        <translation>Ungelesen</translation>
    </message>
    <message>
        <source>Assigned agent</source>
        <translation>Zugewiesener Mitarbeiter</translation>
    </message>
    <message>
        <source>Add tags, comma-separated</source>
        <translation>Tags hinzufügen, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>Tag hinzufügen</translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation>Tag entfernen</translation>
    </message>
    <message>
        <source>Quick replies</source>
        <translation>Schnellantworten</translation>
    </message>
    <message>
        <source>Insert a canned answer (or type / in the empty composer)</source>
        <translation>Eine vorbereitete Antwort einfügen (oder / im leeren Eingabefeld tippen)</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>Tags:</translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation>Nicht zugewiesen</translation>
    </message>
    <message>
        <source>No quick replies yet</source>
        <translation>Noch keine Schnellantworten</translation>
    </message>
    <message>
        <source>Edit quick replies…</source>
        <translation>Schnellantworten bearbeiten…</translation>
    </message>
    <message>
        <source>One answer per line:</source>
        <translation>Eine Antwort pro Zeile:</translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n ungelesen</numerusform>
            <numerusform>%n ungelesen</numerusform>
        </translation>
    </message>
    <message>
        <source>[%1]</source>
        <translation>[%1]</translation>
    </message>
    <message>
        <source>New message from %1</source>
        <translation>Neue Nachricht von %1</translation>
    </message>
    <message>
        <source>No conversations here. Messages from WhatsApp, Telegram, Instagram and the web widget arrive here once a channel is set up in Settings → Channels.</source>
        <translation>Hier gibt es keine Unterhaltungen. Nachrichten von WhatsApp, Telegram, Instagram und dem Web-Widget kommen hier an, sobald ein Kanal unter Einstellungen → Kanäle eingerichtet ist.</translation>
    </message>
    <message>
        <source>open</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>geschlossen</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>Gestern</translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line</source>
        <translation>Eingabe sendet, Umschalt+Eingabe beginnt eine neue Zeile</translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation>Text kopieren</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>wird gesendet</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>gesendet</translation>
    </message>
    <message>
        <source>delivered</source>
        <translation>zugestellt</translation>
    </message>
    <message>
        <source>read</source>
        <translation>gelesen</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Bild</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>Video</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Dokument</translation>
    </message>
    <message>
        <source>Voice message</source>
        <translation>Sprachnachricht</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Standort</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>Team</source>
        <translation>Team</translation>
    </message>
    <message>
        <source>Not delivered: %1</source>
        <translation>Nicht zugestellt: %1</translation>
    </message>
    <message>
        <source>New tags</source>
        <translation>Neue Tags</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Unterhaltungen</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Bearbeiten</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Send again</source>
        <translation>Erneut senden</translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation>Nicht gesendet: %1</translation>
    </message>
    <message>
        <source>Send the replies that were not sent again, oldest first</source>
        <translation>Die nicht gesendeten Antworten erneut senden, die älteste zuerst</translation>
    </message>
    <message>
        <source>Take the reply back into the composer</source>
        <translation>Die Antwort zurück ins Eingabefeld holen</translation>
    </message>
    <message>
        <source>Delete the reply without sending it</source>
        <translation>Die Antwort löschen, ohne sie zu senden</translation>
    </message>
    <message>
        <source>Right-click to retry</source>
        <translation>Rechtsklick zum Wiederholen</translation>
    </message>
    <message>
        <source>No conversation selected</source>
        <translation>Keine Unterhaltung ausgewählt</translation>
    </message>
    <message>
        <source>Not sent: “%1” (%2)</source>
        <translation>Nicht gesendet: „%1“ (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n replies not sent: “%1” (%2)</source>
        <translation>
            <numerusform>%n Antwort nicht gesendet: „%1“ (%2)</numerusform>
            <numerusform>%n Antworten nicht gesendet: „%1“ (%2)</numerusform>
        </translation>
    </message>
    <message>
        <source>Not sent</source>
        <translation>Nicht gesendet</translation>
    </message>
    <message>
        <source>Draft: %1</source>
        <translation>Entwurf: %1</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Search by contact name…</source>
        <translation>Nach Kontaktnamen suchen…</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Unterhaltungen suchen</translation>
    </message>
    <message>
        <source>No conversation with a contact named “%1”: change or clear the search.</source>
        <translation>Keine Unterhaltung mit einem Kontakt namens „%1“: Ändern oder leeren Sie die Suche.</translation>
    </message>
    <message>
        <source>Website visitor %1</source>
        <translation>Website-Besucher %1</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Suche leeren</translation>
    </message>
    <message>
        <source>No conversation here with these filters.</source>
        <translation>Keine Unterhaltung mit diesen Filtern.</translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation>Filter zurücksetzen</translation>
    </message>
    <message>
        <source>Set up channels…</source>
        <translation>Kanäle einrichten…</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>the knowledge base has no answer</source>
        <translation>die Wissensdatenbank hat keine Antwort</translation>
    </message>
    <message>
        <source>it is not sure of its answer</source>
        <translation>er ist sich seiner Antwort nicht sicher</translation>
    </message>
    <message>
        <source>more than one answer fits</source>
        <translation>mehr als eine Antwort passt</translation>
    </message>
    <message>
        <source>the customer asked for a person</source>
        <translation>der Kunde hat nach einer Person gefragt</translation>
    </message>
    <message>
        <source>it does not know the customer&apos;s language</source>
        <translation>er kennt die Sprache des Kunden nicht</translation>
    </message>
    <message>
        <source>Hand back to the assistant</source>
        <translation>An den Assistenten zurückgeben</translation>
    </message>
    <message>
        <source>The assistant answers this conversation&apos;s customer again</source>
        <translation>Der Assistent beantwortet den Kunden dieser Unterhaltung wieder</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Put the suggestion into the reply box, after what you wrote</source>
        <translation>Den Vorschlag ins Antwortfeld einfügen, nach dem, was Sie geschrieben haben</translation>
    </message>
    <message>
        <source>Discard the suggestion</source>
        <translation>Vorschlag verwerfen</translation>
    </message>
    <message>
        <source>Discard the assistant&apos;s suggestion (and take it out of the reply box)</source>
        <translation>Den Vorschlag des Assistenten verwerfen (und aus dem Antwortfeld entfernen)</translation>
    </message>
    <message>
        <source>Discard</source>
        <comment>the assistant&apos;s suggestion</comment>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>handed over</source>
        <translation>übergeben</translation>
    </message>
    <message>
        <source>Suggestion: %1</source>
        <translation>Vorschlag: %1</translation>
    </message>
    <message>
        <source>The assistant handed this conversation over: %1</source>
        <translation>Der Assistent hat diese Unterhaltung übergeben: %1</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>Sign in to give feedback on the assistant&apos;s answers</source>
        <translation>Melden Sie sich an, um Rückmeldung zu den Antworten des Assistenten zu geben</translation>
    </message>
    <message>
        <source>The assistant handed this conversation over to you: %1</source>
        <translation>Der Assistent hat diese Unterhaltung an Sie übergeben: %1</translation>
    </message>
    <message>
        <source>The assistant handed this conversation over to a person: %1</source>
        <translation>Der Assistent hat diese Unterhaltung an eine Person übergeben: %1</translation>
    </message>
    <message>
        <source>The assistant&apos;s suggestion is in the reply box: send it as it is or edited, or discard it.</source>
        <translation>Der Vorschlag des Assistenten steht im Antwortfeld: Senden Sie ihn so oder bearbeitet, oder verwerfen Sie ihn.</translation>
    </message>
    <message>
        <source>The assistant suggests: “%1”</source>
        <translation>Der Assistent schlägt vor: „%1“</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Conversations whose last message came from the customer and that are not closed</source>
        <translation>Nicht geschlossene Unterhaltungen, deren letzte Nachricht vom Kunden kam</translation>
    </message>
</context>
<context>
    <name>IncomingWebhookDialog</name>
    <message>
        <source>Add incoming webhook</source>
        <translation>Eingehenden Webhook hinzufügen</translation>
    </message>
    <message>
        <source>Create or update a contact</source>
        <translation>Kontakt anlegen oder aktualisieren</translation>
    </message>
    <message>
        <source>Create or update a deal</source>
        <translation>Deal anlegen oder aktualisieren</translation>
    </message>
    <message>
        <source>Create a task</source>
        <translation>Aufgabe anlegen</translation>
    </message>
    <message>
        <source>Receive a message</source>
        <translation>Nachricht empfangen</translation>
    </message>
    <message>
        <source>Require a signature (X-Service-Signature)</source>
        <translation>Signatur verlangen (X-Service-Signature)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
</context>
<context>
    <name>IncomingWebhooksPage</name>
    <message>
        <source>External systems POST {&quot;event&quot;: …, &quot;data&quot;: {…}} to an endpoint&apos;s URL (no API key). Each endpoint runs one action; every call is logged below.</source>
        <translation>Externe Systeme senden per POST {&quot;event&quot;: …, &quot;data&quot;: {…}} an die URL eines Endpunkts (kein API-Schlüssel). Jeder Endpunkt führt eine Aktion aus; jeder Aufruf wird unten protokolliert.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Signed</source>
        <translation>Signiert</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Last call</source>
        <translation>Letzter Aufruf</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen…</translation>
    </message>
    <message>
        <source>Copy URL</source>
        <translation>URL kopieren</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Call log</source>
        <translation>Aufrufprotokoll</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Nein</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>Signing secret of the incoming webhook</source>
        <translation>Signaturgeheimnis des eingehenden Webhooks</translation>
    </message>
    <message>
        <source>Delete incoming webhook</source>
        <translation>Eingehenden Webhook löschen</translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot;? Calls to its URL will be answered 404.</source>
        <translation>„%1“ löschen? Aufrufe an seine URL werden mit 404 beantwortet.</translation>
    </message>
    <message>
        <source>No incoming webhooks yet. Add one with Add… and give its URL to the service that should create contacts or deals here.</source>
        <translation>Noch keine eingehenden Webhooks. Fügen Sie einen mit „Hinzufügen…“ hinzu und geben Sie seine URL dem Dienst, der hier Kontakte oder Deals anlegen soll.</translation>
    </message>
</context>
<context>
    <name>JumpBox</name>
    <message>
        <source>Contacts</source>
        <translation>Kontakte</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Deals</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Unterhaltungen</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Jump to</source>
        <translation>Springen zu</translation>
    </message>
    <message>
        <source>Name of a contact, deal, conversation or task…</source>
        <translation>Name eines Kontakts, Deals, einer Unterhaltung oder Aufgabe…</translation>
    </message>
    <message>
        <source>Matches</source>
        <translation>Treffer</translation>
    </message>
    <message>
        <source>Type a name. Up and Down choose, Enter opens.</source>
        <translation>Geben Sie einen Namen ein. Auf und Ab wählen, Eingabe öffnet.</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Wird gesucht…</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(kein Name)</translation>
    </message>
    <message>
        <source>due %1</source>
        <translation>fällig %1</translation>
    </message>
    <message>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <source>Nothing matches “%1”.</source>
        <translation>Nichts entspricht „%1“.</translation>
    </message>
    <message>
        <source>Up and Down choose, Enter opens.</source>
        <translation>Auf und Ab wählen, Eingabe öffnet.</translation>
    </message>
</context>
<context>
    <name>LostDialog</name>
    <message>
        <source>Deal lost: %1</source>
        <translation>Deal verloren: %1</translation>
    </message>
    <message>
        <source>Choose a reason…</source>
        <translation>Grund wählen…</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation>Wettbewerber</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Mark lost</source>
        <translation>Als verloren markieren</translation>
    </message>
    <message>
        <source>Choose why the deal was lost.</source>
        <translation>Wählen Sie, warum der Deal verloren wurde.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Liaison</source>
        <translation>Liaison</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kontakte</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Deals</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;API keys…</source>
        <translation>&amp;API-Schlüssel…</translation>
    </message>
    <message>
        <source>&amp;Webhooks…</source>
        <translation>&amp;Webhooks…</translation>
    </message>
    <message>
        <source>&amp;Incoming webhooks…</source>
        <translation>E&amp;ingehende Webhooks…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Liaison</source>
        <translation>Ü&amp;ber Liaison</translation>
    </message>
    <message>
        <source>About Liaison</source>
        <translation>Über Liaison</translation>
    </message>
    <message>
        <source>Liaison %1
A desktop CRM with a local REST API.</source>
        <translation>Liaison %1
Ein Desktop-CRM mit lokaler REST-API.</translation>
    </message>
    <message>
        <source>API: not started</source>
        <translation>API: nicht gestartet</translation>
    </message>
    <message>
        <source>API: %1 — running</source>
        <translation>API: %1 — läuft</translation>
    </message>
    <message>
        <source>API server stopped</source>
        <translation>API-Server angehalten</translation>
    </message>
    <message>
        <source>API server stopped: %1</source>
        <translation>API-Server angehalten: %1</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Incoming webhooks</source>
        <translation>Eingehende Webhooks</translation>
    </message>
    <message>
        <source>Web widget</source>
        <translation>Web-Widget</translation>
    </message>
    <message>
        <source>Web &amp;widget…</source>
        <translation>Web-Wid&amp;get…</translation>
    </message>
    <message>
        <source>&amp;Getting started…</source>
        <translation>&amp;Erste Schritte…</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>Ab&amp;melden</translation>
    </message>
    <message>
        <source>%1 (admin)</source>
        <translation>%1 (Admin)</translation>
    </message>
    <message>
        <source>%1 (agent)</source>
        <translation>%1 (Mitarbeiter)</translation>
    </message>
    <message>
        <source>&amp;Change password…</source>
        <translation>&amp;Passwort ändern…</translation>
    </message>
    <message>
        <source>Navigation</source>
        <translation>Navigation</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation>&amp;Tastenkürzel…</translation>
    </message>
    <message>
        <source>Everywhere</source>
        <translation>Überall</translation>
    </message>
    <message>
        <source>Jump to a contact, deal, conversation or task</source>
        <translation>Zu einem Kontakt, Deal, einer Unterhaltung oder Aufgabe springen</translation>
    </message>
    <message>
        <source>Search in the area in front</source>
        <translation>Im vorderen Bereich suchen</translation>
    </message>
    <message>
        <source>New record in the area in front (contact, deal, task; in the Inbox, a reply)</source>
        <translation>Neuer Eintrag im vorderen Bereich (Kontakt, Deal, Aufgabe; im Posteingang eine Antwort)</translation>
    </message>
    <message>
        <source>Go to %1</source>
        <translation>%1 öffnen</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Down or Enter (in the search)</source>
        <translation>Ab oder Eingabe (in der Suche)</translation>
    </message>
    <message>
        <source>Move to the results, the first one selected</source>
        <translation>Zu den Ergebnissen wechseln, das erste ausgewählt</translation>
    </message>
    <message>
        <source>Enter (in the results)</source>
        <translation>Eingabe (in den Ergebnissen)</translation>
    </message>
    <message>
        <source>Open the selected contact</source>
        <translation>Den ausgewählten Kontakt öffnen</translation>
    </message>
    <message>
        <source>Escape (in the results)</source>
        <translation>Esc (in den Ergebnissen)</translation>
    </message>
    <message>
        <source>Back to the search</source>
        <translation>Zurück zur Suche</translation>
    </message>
    <message>
        <source>Delete the selected contact</source>
        <translation>Den ausgewählten Kontakt löschen</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Enter (in the quick-add line)</source>
        <translation>Eingabe (in der Schnelleingabezeile)</translation>
    </message>
    <message>
        <source>Add the task</source>
        <translation>Die Aufgabe hinzufügen</translation>
    </message>
    <message>
        <source>Delete the selected task</source>
        <translation>Die ausgewählte Aufgabe löschen</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>Posteingang</translation>
    </message>
    <message>
        <source>%1 … %2</source>
        <translation>%1 … %2</translation>
    </message>
    <message>
        <source>Insert quick reply 1 to 9</source>
        <translation>Schnellantwort 1 bis 9 einfügen</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Send the reply</source>
        <translation>Die Antwort senden</translation>
    </message>
    <message>
        <source>Shift+Enter</source>
        <translation>Umschalt+Eingabe</translation>
    </message>
    <message>
        <source>New line in the reply</source>
        <translation>Neue Zeile in der Antwort</translation>
    </message>
    <message>
        <source>/ (in an empty reply)</source>
        <translation>/ (in einer leeren Antwort)</translation>
    </message>
    <message>
        <source>Choose a quick reply</source>
        <translation>Eine Schnellantwort wählen</translation>
    </message>
    <message>
        <source>Jump to</source>
        <translation>Springen zu</translation>
    </message>
    <message>
        <source>Up, Down</source>
        <translation>Auf, Ab</translation>
    </message>
    <message>
        <source>Choose a match</source>
        <translation>Einen Treffer wählen</translation>
    </message>
    <message>
        <source>Open it in its area</source>
        <translation>Im zugehörigen Bereich öffnen</translation>
    </message>
    <message>
        <source>Escape</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Enter (in the list)</source>
        <translation>Eingabe (in der Liste)</translation>
    </message>
    <message>
        <source>Open the selected deal</source>
        <translation>Den ausgewählten Deal öffnen</translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n ungelesen</numerusform>
            <numerusform>%n ungelesen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n overdue</source>
        <translation>
            <numerusform>%n überfällig</numerusform>
            <numerusform>%n überfällig</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>Disk full: changes are not being saved; reading still works</source>
        <translation>Festplatte voll: Änderungen werden nicht gespeichert; Lesen funktioniert weiter</translation>
    </message>
    <message>
        <source>Free space on the disk that holds the data folder; saving resumes by itself.</source>
        <translation>Schaffen Sie Platz auf der Festplatte mit dem Datenordner; das Speichern setzt von selbst wieder ein.</translation>
    </message>
</context>
<context>
    <name>MediaPage</name>
    <message>
        <source>Uploads</source>
        <translation>Uploads</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Largest file:</source>
        <translation>Größte Datei:</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>Keep files for:</source>
        <translation>Dateien aufbewahren für:</translation>
    </message>
    <message>
        <source>The server&apos;s own address, e.g. https://crm.example.com</source>
        <translation>Die eigene Adresse des Servers, z. B. https://crm.example.com</translation>
    </message>
    <message>
        <source>Public base URL of media links:</source>
        <translation>Öffentliche Basis-URL der Medienlinks:</translation>
    </message>
    <message>
        <source>Channel providers download sent files from this address. Changes take effect at the next start.</source>
        <translation>Kanalanbieter laden gesendete Dateien von dieser Adresse herunter. Änderungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Stored files</source>
        <translation>Gespeicherte Dateien</translation>
    </message>
    <message>
        <source>Delete expired now</source>
        <translation>Abgelaufene jetzt löschen</translation>
    </message>
    <message>
        <source>The database cannot be read.</source>
        <translation>Die Datenbank kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>No files are stored.</source>
        <translation>Es sind keine Dateien gespeichert.</translation>
    </message>
    <message>
        <source>Files: %1, %2 in all; the next one expires %3.</source>
        <translation>Dateien: %1, insgesamt %2; die nächste läuft %3 ab.</translation>
    </message>
    <message>
        <source>The public base URL must be an http(s) address such as https://crm.example.com.</source>
        <translation>Die öffentliche Basis-URL muss eine http(s)-Adresse sein, etwa https://crm.example.com.</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Konnte nicht speichern: %1</translation>
    </message>
    <message>
        <source>Saved. The new settings take effect at the next start.</source>
        <translation>Gespeichert. Die neuen Einstellungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>Expired files deleted: %1.</source>
        <translation>Abgelaufene Dateien gelöscht: %1.</translation>
    </message>
    <message>
        <source>Could not delete expired files: %1</source>
        <translation>Abgelaufene Dateien konnten nicht gelöscht werden: %1</translation>
    </message>
    <message>
        <source>Media</source>
        <translation>Medien</translation>
    </message>
    <message>
        <source>&amp;Media…</source>
        <translation>&amp;Medien…</translation>
    </message>
</context>
<context>
    <name>ModelError</name>
    <message>
        <source>%1 %2 does not exist</source>
        <translation>%1 %2 existiert nicht</translation>
    </message>
    <message>
        <source>A contact with e-mail %1 already exists</source>
        <translation>Ein Kontakt mit der E-Mail-Adresse %1 existiert bereits</translation>
    </message>
    <message>
        <source>A contact with phone %1 already exists</source>
        <translation>Ein Kontakt mit der Telefonnummer %1 existiert bereits</translation>
    </message>
    <message>
        <source>A pipeline named %1 already exists</source>
        <translation>Eine Pipeline namens %1 existiert bereits</translation>
    </message>
    <message>
        <source>A segment named %1 already exists</source>
        <translation>Ein Segment namens %1 existiert bereits</translation>
    </message>
    <message>
        <source>A stage that still holds deals cannot be removed: move its deals first</source>
        <translation>Eine Phase, die noch Deals enthält, kann nicht entfernt werden: Verschieben Sie zuerst ihre Deals</translation>
    </message>
    <message>
        <source>A template %1 (%2) already exists</source>
        <translation>Eine Vorlage %1 (%2) existiert bereits</translation>
    </message>
    <message>
        <source>A user with e-mail %1 already exists</source>
        <translation>Ein Benutzer mit der E-Mail-Adresse %1 existiert bereits</translation>
    </message>
    <message>
        <source>At most %1 webhook subscriptions; delete one first (webhooks/maxSubscriptions)</source>
        <translation>Höchstens %1 Webhook-Abonnements; löschen Sie zuerst eines (webhooks/maxSubscriptions)</translation>
    </message>
    <message>
        <source>Cannot change task status from %1 to %2%3</source>
        <translation>Der Aufgabenstatus kann nicht von %1 zu %2 geändert werden%3</translation>
    </message>
    <message>
        <source>Contact %1 has no tag %2</source>
        <translation>Kontakt %1 hat kein Tag %2</translation>
    </message>
    <message>
        <source>Contact %1 is not in segment %2</source>
        <translation>Kontakt %1 ist nicht in Segment %2</translation>
    </message>
    <message>
        <source>Contact not found</source>
        <translation>Kontakt nicht gefunden</translation>
    </message>
    <message>
        <source>Contacts not found: %1</source>
        <translation>Kontakte nicht gefunden: %1</translation>
    </message>
    <message>
        <source>Conversation %1 has no tag %2</source>
        <translation>Unterhaltung %1 hat kein Tag %2</translation>
    </message>
    <message>
        <source>Deal %1 is already lost</source>
        <translation>Deal %1 ist bereits verloren</translation>
    </message>
    <message>
        <source>Deal %1 is already won</source>
        <translation>Deal %1 ist bereits gewonnen</translation>
    </message>
    <message>
        <source>Message %1 does not exist in this conversation</source>
        <translation>Nachricht %1 existiert in dieser Unterhaltung nicht</translation>
    </message>
    <message>
        <source>Pipeline %1 holds %2 deal(s): move or delete them first</source>
        <translation>Pipeline %1 enthält %2 Deal(s): Verschieben oder löschen Sie sie zuerst</translation>
    </message>
    <message>
        <source>Required field missing</source>
        <translation>Pflichtfeld fehlt</translation>
    </message>
    <message>
        <source>Template %1 (%2) is %3, not approved</source>
        <translation>Vorlage %1 (%2) ist %3, nicht genehmigt</translation>
    </message>
    <message>
        <source>Template %1 (%2) is not an approved template</source>
        <translation>Vorlage %1 (%2) ist keine genehmigte Vorlage</translation>
    </message>
    <message>
        <source>The default pipeline cannot be deleted: make another pipeline the default</source>
        <translation>Die Standard-Pipeline kann nicht gelöscht werden: Machen Sie eine andere Pipeline zum Standard</translation>
    </message>
    <message>
        <source>The file is empty</source>
        <translation>Die Datei ist leer</translation>
    </message>
    <message>
        <source>The file&apos;s content is not %1%2</source>
        <translation>Der Inhalt der Datei ist nicht %1%2</translation>
    </message>
    <message>
        <source>There must be a default pipeline: make another pipeline the default</source>
        <translation>Es muss eine Standard-Pipeline geben: Machen Sie eine andere Pipeline zum Standard</translation>
    </message>
    <message>
        <source>User %1 does not exist</source>
        <translation>Benutzer %1 existiert nicht</translation>
    </message>
    <message>
        <source>Invalid data: channel must be one of %1</source>
        <translation>Ungültige Daten: channel muss eines von %1 sein</translation>
    </message>
    <message>
        <source>Invalid data: give either secret or rotateSecret</source>
        <translation>Ungültige Daten: Geben Sie entweder secret oder rotateSecret an</translation>
    </message>
    <message>
        <source>Invalid data: status must be one of %1</source>
        <translation>Ungültige Daten: status muss eines von %1 sein</translation>
    </message>
    <message>
        <source>Invalid data: unknown event %1</source>
        <translation>Ungültige Daten: unbekanntes Ereignis %1</translation>
    </message>
    <message>
        <source>Invalid data: unknown message status %1</source>
        <translation>Ungültige Daten: unbekannter Nachrichtenstatus %1</translation>
    </message>
    <message>
        <source>Invalid data: unknown scope %1</source>
        <translation>Ungültige Daten: unbekannte Berechtigung %1</translation>
    </message>
    <message>
        <source>a body parameter is longer than 1024 characters</source>
        <translation>ein Body-Parameter ist länger als 1024 Zeichen</translation>
    </message>
    <message>
        <source>a segment has at most %1 rules</source>
        <translation>ein Segment hat höchstens %1 Regeln</translation>
    </message>
    <message>
        <source>a span for %1 must be at most %2d</source>
        <translation>eine Zeitspanne für %1 darf höchstens %2d betragen</translation>
    </message>
    <message>
        <source>already exists</source>
        <translation>existiert bereits</translation>
    </message>
    <message>
        <source>already exists in this language</source>
        <translation>existiert in dieser Sprache bereits</translation>
    </message>
    <message>
        <source>already registered</source>
        <translation>bereits registriert</translation>
    </message>
    <message>
        <source>applies only to weekly recurrence</source>
        <translation>gilt nur für wöchentliche Wiederholung</translation>
    </message>
    <message>
        <source>between needs a value [low, high] with two values</source>
        <translation>between braucht einen Wert [niedrig, hoch] mit zwei Werten</translation>
    </message>
    <message>
        <source>between needs two numbers or two strings</source>
        <translation>between braucht zwei Zahlen oder zwei Zeichenketten</translation>
    </message>
    <message>
        <source>cannot be combined with secret</source>
        <translation>kann nicht mit secret kombiniert werden</translation>
    </message>
    <message>
        <source>cannot be unset directly</source>
        <translation>kann nicht direkt entfernt werden</translation>
    </message>
    <message>
        <source>cannot go from %1 to %2</source>
        <translation>kann nicht von %1 zu %2 wechseln</translation>
    </message>
    <message>
        <source>contacts are added to static segments only</source>
        <translation>Kontakte werden nur statischen Segmenten hinzugefügt</translation>
    </message>
    <message>
        <source>content does not match its Content-Type</source>
        <translation>Inhalt passt nicht zu seinem Content-Type</translation>
    </message>
    <message>
        <source>customField key must be 1 to 64 characters of A-Z a-z 0-9 _ . -</source>
        <translation>Der Schlüssel eines customField muss 1 bis 64 Zeichen aus A-Z a-z 0-9 _ . - haben</translation>
    </message>
    <message>
        <source>does not exist: %1</source>
        <translation>existiert nicht: %1</translation>
    </message>
    <message>
        <source>field is required</source>
        <translation>Feld ist erforderlich</translation>
    </message>
    <message>
        <source>field must be a string</source>
        <translation>Feld muss eine Zeichenkette sein</translation>
    </message>
    <message>
        <source>groups nest at most %1 levels</source>
        <translation>Gruppen sind höchstens %1 Ebenen tief verschachtelt</translation>
    </message>
    <message>
        <source>is empty</source>
        <translation>ist leer</translation>
    </message>
    <message>
        <source>is not a valid e-mail address</source>
        <translation>ist keine gültige E-Mail-Adresse</translation>
    </message>
    <message>
        <source>is not a valid phone number</source>
        <translation>ist keine gültige Telefonnummer</translation>
    </message>
    <message>
        <source>is not an address field</source>
        <translation>ist kein Adressfeld</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>ist erforderlich</translation>
    </message>
    <message>
        <source>is required: one of %1</source>
        <translation>ist erforderlich: eines von %1</translation>
    </message>
    <message>
        <source>must be 1 to 40 lower-case letters, digits or underscores</source>
        <translation>muss aus 1 bis 40 Kleinbuchstaben, Ziffern oder Unterstrichen bestehen</translation>
    </message>
    <message>
        <source>must be AND or OR</source>
        <translation>muss AND oder OR sein</translation>
    </message>
    <message>
        <source>must be a boolean</source>
        <translation>muss ein Wahrheitswert sein</translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD)</source>
        <translation>muss ein Datum sein (JJJJ-MM-TT)</translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset</source>
        <translation>muss ein Datum (JJJJ-MM-TT) oder eine ISO-8601-Zeitangabe mit Z oder Versatz sein</translation>
    </message>
    <message>
        <source>must be a non-negative number</source>
        <translation>muss eine nicht negative Zahl sein</translation>
    </message>
    <message>
        <source>must be a phone number in international form</source>
        <translation>muss eine Telefonnummer in internationaler Form sein</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>muss eine Zeichenkette sein</translation>
    </message>
    <message>
        <source>must be a string of at most %1 characters</source>
        <translation>muss eine Zeichenkette mit höchstens %1 Zeichen sein</translation>
    </message>
    <message>
        <source>must be a whole number from 1 to 1000</source>
        <translation>muss eine ganze Zahl von 1 bis 1000 sein</translation>
    </message>
    <message>
        <source>must be a whole number of minutes from 0 to 525600 (one year)</source>
        <translation>muss eine ganze Zahl von Minuten von 0 bis 525600 (ein Jahr) sein</translation>
    </message>
    <message>
        <source>must be admin or agent</source>
        <translation>muss admin oder agent sein</translation>
    </message>
    <message>
        <source>must be an ISO 4217 currency code such as TRY, USD, EUR</source>
        <translation>muss ein ISO-4217-Währungscode wie TRY, USD, EUR sein</translation>
    </message>
    <message>
        <source>must be an array</source>
        <translation>muss ein Array sein</translation>
    </message>
    <message>
        <source>must be an array of day names (monday … sunday)</source>
        <translation>muss ein Array von Tagesnamen sein (monday … sunday)</translation>
    </message>
    <message>
        <source>must be an array of event names</source>
        <translation>muss ein Array von Ereignisnamen sein</translation>
    </message>
    <message>
        <source>must be an array of stage objects</source>
        <translation>muss ein Array von Phasenobjekten sein</translation>
    </message>
    <message>
        <source>must be an array of strings of at most 64 characters</source>
        <translation>muss ein Array von Zeichenketten mit höchstens 64 Zeichen sein</translation>
    </message>
    <message>
        <source>must be an integer from 0 to 100</source>
        <translation>muss eine ganze Zahl von 0 bis 100 sein</translation>
    </message>
    <message>
        <source>must be an integer from 0 to 3650 (0: never)</source>
        <translation>muss eine ganze Zahl von 0 bis 3650 sein (0: nie)</translation>
    </message>
    <message>
        <source>must be an international number: + and 7 to 15 digits</source>
        <translation>muss eine internationale Nummer sein: + und 7 bis 15 Ziffern</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>muss ein Objekt sein</translation>
    </message>
    <message>
        <source>must be an object (a rule or a group)</source>
        <translation>muss ein Objekt sein (eine Regel oder eine Gruppe)</translation>
    </message>
    <message>
        <source>must be an object with enabled and before (minutes)</source>
        <translation>muss ein Objekt mit enabled und before (Minuten) sein</translation>
    </message>
    <message>
        <source>must be an object with frequency, interval, daysOfWeek, endDate</source>
        <translation>muss ein Objekt mit frequency, interval, daysOfWeek, endDate sein</translation>
    </message>
    <message>
        <source>must be an object with name, key, probability, rottenDays</source>
        <translation>muss ein Objekt mit name, key, probability, rottenDays sein</translation>
    </message>
    <message>
        <source>must be an object with rules and logic</source>
        <translation>muss ein Objekt mit rules und logic sein</translation>
    </message>
    <message>
        <source>must be an object with street, city, country</source>
        <translation>muss ein Objekt mit street, city, country sein</translation>
    </message>
    <message>
        <source>must be at most %1 characters</source>
        <translation>darf höchstens %1 Zeichen haben</translation>
    </message>
    <message>
        <source>must be in international form (+ and digits)</source>
        <translation>muss in internationaler Form sein (+ und Ziffern)</translation>
    </message>
    <message>
        <source>must be in international format with a leading +</source>
        <translation>muss im internationalen Format mit führendem + sein</translation>
    </message>
    <message>
        <source>must be one of %1</source>
        <translation>muss eines von %1 sein</translation>
    </message>
    <message>
        <source>must be one of the stages of pipeline %1: %2</source>
        <translation>muss eine der Phasen der Pipeline %1 sein: %2</translation>
    </message>
    <message>
        <source>must be open, pending or closed</source>
        <translation>muss open, pending oder closed sein</translation>
    </message>
    <message>
        <source>must be the sender&apos;s address on the channel</source>
        <translation>muss die Adresse des Absenders auf dem Kanal sein</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>muss true oder false sein</translation>
    </message>
    <message>
        <source>must have at least %1 characters</source>
        <translation>muss mindestens %1 Zeichen haben</translation>
    </message>
    <message>
        <source>must have at most %1 characters</source>
        <translation>darf höchstens %1 Zeichen haben</translation>
    </message>
    <message>
        <source>must have at most %1 tags</source>
        <translation>darf höchstens %1 Tags haben</translation>
    </message>
    <message>
        <source>must have at most 30 open stages</source>
        <translation>darf höchstens 30 offene Phasen haben</translation>
    </message>
    <message>
        <source>must hold at most %1 ids</source>
        <translation>darf höchstens %1 IDs enthalten</translation>
    </message>
    <message>
        <source>must hold at most %1 components</source>
        <translation>darf höchstens %1 Komponenten enthalten</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>name and key must be strings</source>
        <translation>name und key müssen Zeichenketten sein</translation>
    </message>
    <message>
        <source>not an approved template</source>
        <translation>keine genehmigte Vorlage</translation>
    </message>
    <message>
        <source>of a %1 deal is %2</source>
        <translation>eines %1-Deals ist %2</translation>
    </message>
    <message>
        <source>operator %1 is not valid for %2 (%3)</source>
        <translation>Operator %1 ist für %2 (%3) nicht gültig</translation>
    </message>
    <message>
        <source>operator is required</source>
        <translation>Operator ist erforderlich</translation>
    </message>
    <message>
        <source>operator must be a string</source>
        <translation>Operator muss eine Zeichenkette sein</translation>
    </message>
    <message>
        <source>parameters must be an array</source>
        <translation>parameters muss ein Array sein</translation>
    </message>
    <message>
        <source>repeats the body component</source>
        <translation>wiederholt die Body-Komponente</translation>
    </message>
    <message>
        <source>repeats the stage %1</source>
        <translation>wiederholt die Phase %1</translation>
    </message>
    <message>
        <source>template %1 (%2) needs %3 body parameters, got %4</source>
        <translation>Vorlage %1 (%2) braucht %3 Body-Parameter, erhalten: %4</translation>
    </message>
    <message>
        <source>unknown channel</source>
        <translation>unbekannter Kanal</translation>
    </message>
    <message>
        <source>unknown event %1</source>
        <translation>unbekanntes Ereignis %1</translation>
    </message>
    <message>
        <source>unknown field %1</source>
        <translation>unbekanntes Feld %1</translation>
    </message>
    <message>
        <source>unknown logic %1 (use AND or OR)</source>
        <translation>unbekannte Logik %1 (verwenden Sie AND oder OR)</translation>
    </message>
    <message>
        <source>unknown message</source>
        <translation>unbekannte Nachricht</translation>
    </message>
    <message>
        <source>unknown operator %1</source>
        <translation>unbekannter Operator %1</translation>
    </message>
    <message>
        <source>unknown scope %1</source>
        <translation>unbekannte Berechtigung %1</translation>
    </message>
    <message>
        <source>unknown status</source>
        <translation>unbekannter Status</translation>
    </message>
    <message>
        <source>unknown user</source>
        <translation>unbekannter Benutzer</translation>
    </message>
    <message>
        <source>value for %1 must be a date (YYYY-MM-DD), an ISO 8601 date-time or a span like 30d</source>
        <translation>Wert für %1 muss ein Datum (JJJJ-MM-TT), eine ISO-8601-Zeitangabe oder eine Zeitspanne wie 30d sein</translation>
    </message>
    <message>
        <source>value for %1 must be a non-empty string or a number</source>
        <translation>Wert für %1 muss eine nicht leere Zeichenkette oder eine Zahl sein</translation>
    </message>
    <message>
        <source>value for %1 must be a number</source>
        <translation>Wert für %1 muss eine Zahl sein</translation>
    </message>
    <message>
        <source>value for %1 must be a string</source>
        <translation>Wert für %1 muss eine Zeichenkette sein</translation>
    </message>
    <message>
        <source>value for %1 must be at most %2 characters</source>
        <translation>Wert für %1 darf höchstens %2 Zeichen haben</translation>
    </message>
    <message>
        <source>value for %1 must not be empty (use isEmpty to find empty fields)</source>
        <translation>Wert für %1 darf nicht leer sein (verwenden Sie isEmpty, um leere Felder zu finden)</translation>
    </message>
    <message>
        <source>value for %1 must be between 0 and 100</source>
        <translation>Wert für %1 muss zwischen 0 und 100 liegen</translation>
    </message>
    <message>
        <source>value for phone must contain digits</source>
        <translation>Wert für phone muss Ziffern enthalten</translation>
    </message>
    <message>
        <source>value for sentiment must be positive, negative or neutral</source>
        <translation>Wert für sentiment muss positive, negative oder neutral sein</translation>
    </message>
    <message>
        <source>value for %1 must not be negative</source>
        <translation>Wert für %1 darf nicht negativ sein</translation>
    </message>
    <message>
        <source>value is required for operator %1</source>
        <translation>Wert ist für Operator %1 erforderlich</translation>
    </message>
    <message>
        <source>value must be a single value; only between takes [low, high]</source>
        <translation>Wert muss ein einzelner Wert sein; nur between nimmt [niedrig, hoch]</translation>
    </message>
    <message>
        <source> (it looks like %1)</source>
        <translation> (es sieht aus wie %1)</translation>
    </message>
    <message>
        <source>not configured</source>
        <translation>nicht eingerichtet</translation>
    </message>
    <message>
        <source>Action %1 is not available</source>
        <translation>Aktion %1 ist nicht verfügbar</translation>
    </message>
    <message>
        <source>The body must be a JSON object</source>
        <translation>Der Body muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>are required for a dynamic segment</source>
        <translation>sind für ein dynamisches Segment erforderlich</translation>
    </message>
    <message>
        <source>is required (event names, or &quot;*&quot;)</source>
        <translation>ist erforderlich (Ereignisnamen oder &quot;*&quot;)</translation>
    </message>
    <message>
        <source>must be a language code such as en_US or tr</source>
        <translation>muss ein Sprachcode wie en_US oder tr sein</translation>
    </message>
    <message>
        <source>must be a number from %1 to %2</source>
        <translation>muss eine Zahl von %1 bis %2 sein</translation>
    </message>
    <message>
        <source>must be a string, or true to generate one</source>
        <translation>muss eine Zeichenkette sein oder true, um eine zu erzeugen</translation>
    </message>
    <message>
        <source>must be an absolute https URL</source>
        <translation>muss eine absolute https-URL sein</translation>
    </message>
    <message>
        <source>must be an array of at most %1 buttons</source>
        <translation>muss ein Array von höchstens %1 Schaltflächen sein</translation>
    </message>
    <message>
        <source>must be an e-mail address</source>
        <translation>muss eine E-Mail-Adresse sein</translation>
    </message>
    <message>
        <source>must be an http(s) URL</source>
        <translation>muss eine http(s)-URL sein</translation>
    </message>
    <message>
        <source>must be lower-case letters, digits and _</source>
        <translation>muss aus Kleinbuchstaben, Ziffern und _ bestehen</translation>
    </message>
    <message>
        <source>must have %1 to %2 characters</source>
        <translation>muss %1 bis %2 Zeichen haben</translation>
    </message>
    <message>
        <source>must not carry a user name or password</source>
        <translation>darf keinen Benutzernamen und kein Passwort enthalten</translation>
    </message>
    <message>
        <source>must use https</source>
        <translation>muss https verwenden</translation>
    </message>
    <message>
        <source>must use https (plain http to loopback needs webhooks/allowInsecureLocal=true)</source>
        <translation>muss https verwenden (unverschlüsseltes http an Loopback braucht webhooks/allowInsecureLocal=true)</translation>
    </message>
    <message>
        <source>needs at least one open stage besides won and lost</source>
        <translation>braucht neben Gewonnen und Verloren mindestens eine offene Phase</translation>
    </message>
    <message>
        <source>or %1 is required</source>
        <translation>oder %1 ist erforderlich</translation>
    </message>
    <message>
        <source>refused: the receiver&apos;s address is not allowed (webhooks/allowedTargets)</source>
        <translation>abgewiesen: Die Adresse des Empfängers ist nicht erlaubt (webhooks/allowedTargets)</translation>
    </message>
    <message>
        <source>Invalid data: %1</source>
        <translation>Ungültige Daten: %1</translation>
    </message>
    <message>
        <source>Required field missing: %1</source>
        <translation>Pflichtfeld fehlt: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Scope %1 needs the admin role</source>
        <translation>Berechtigung %1 erfordert die Admin-Rolle</translation>
    </message>
    <message>
        <source>scope %1 needs the admin role</source>
        <translation>Berechtigung %1 erfordert die Admin-Rolle</translation>
    </message>
    <message>
        <source>The last active admin cannot be deactivated</source>
        <translation>Der letzte aktive Admin kann nicht deaktiviert werden</translation>
    </message>
    <message>
        <source>The last active admin cannot become an agent</source>
        <translation>Der letzte aktive Admin kann kein Mitarbeiter werden</translation>
    </message>
    <message>
        <source>Task %1 is already closed</source>
        <translation>Aufgabe %1 ist bereits geschlossen</translation>
    </message>
    <message>
        <source>Conversation %1 already has a contact</source>
        <translation>Unterhaltung %1 hat bereits einen Kontakt</translation>
    </message>
    <message>
        <source>Say who the visitor is: a name, an e-mail address or a phone number</source>
        <translation>Geben Sie an, wer der Besucher ist: einen Namen, eine E-Mail-Adresse oder eine Telefonnummer</translation>
    </message>
    <message>
        <source>This visitor has already said who they are</source>
        <translation>Dieser Besucher hat bereits gesagt, wer er ist</translation>
    </message>
    <message>
        <source>a name, email or phone is required</source>
        <translation>ein Name, eine E-Mail-Adresse oder Telefonnummer ist erforderlich</translation>
    </message>
    <message>
        <source>already set</source>
        <translation>bereits gesetzt</translation>
    </message>
    <message>
        <source>The disk holding the database is full: this change was not saved. Reading still works; writing works again once space is freed</source>
        <translation>Die Festplatte mit der Datenbank ist voll: Diese Änderung wurde nicht gespeichert. Lesen funktioniert weiter; Schreiben funktioniert wieder, sobald Platz frei ist</translation>
    </message>
    <message>
        <source>field names must be 1 to %1 characters</source>
        <translation>Feldnamen müssen 1 bis %1 Zeichen haben</translation>
    </message>
    <message>
        <source>must be at most %1 bytes as JSON</source>
        <translation>darf als JSON höchstens %1 Bytes groß sein</translation>
    </message>
    <message>
        <source>must have at most %1 fields</source>
        <translation>darf höchstens %1 Felder haben</translation>
    </message>
    <message>
        <source>the value of %1 must be at most %2 characters</source>
        <translation>der Wert von %1 darf höchstens %2 Zeichen haben</translation>
    </message>
    <message>
        <source>Another change saved the same value first: this one was not saved</source>
        <translation>Eine andere Änderung hat denselben Wert zuerst gespeichert: Diese wurde nicht gespeichert</translation>
    </message>
    <message>
        <source>Channel unavailable</source>
        <translation>Kanal nicht verfügbar</translation>
    </message>
    <message>
        <source>Rate limited</source>
        <translation>Ratenbegrenzung erreicht</translation>
    </message>
    <message>
        <source>Not a file: %1</source>
        <translation>Keine Datei: %1</translation>
    </message>
    <message>
        <source>must be a file</source>
        <translation>muss eine Datei sein</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>Invalid phone</source>
        <translation>Ungültige Telefonnummer</translation>
    </message>
    <message>
        <source>must be an E.164 number (+ and 7 to 15 digits)</source>
        <translation>muss eine E.164-Nummer sein (+ und 7 bis 15 Ziffern)</translation>
    </message>
    <message>
        <source>The contact has no widget conversation to send into</source>
        <translation>Der Kontakt hat keine Widget-Unterhaltung, in die gesendet werden kann</translation>
    </message>
    <message>
        <source>has no widget conversation</source>
        <translation>hat keine Widget-Unterhaltung</translation>
    </message>
    <message>
        <source>The contact has no phone number to send to</source>
        <translation>Der Kontakt hat keine Telefonnummer, an die gesendet werden kann</translation>
    </message>
    <message>
        <source>The contact has no %1 conversation to send into</source>
        <translation>Der Kontakt hat keine %1-Unterhaltung, in die gesendet werden kann</translation>
    </message>
    <message>
        <source>has no phone number</source>
        <translation>hat keine Telefonnummer</translation>
    </message>
    <message>
        <source>has no conversation on the channel</source>
        <translation>hat keine Unterhaltung auf dem Kanal</translation>
    </message>
    <message>
        <source>File too large: at most %1 bytes</source>
        <translation>Datei zu groß: höchstens %1 Bytes</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Invalid data: name is longer than 200 characters</source>
        <translation>Ungültige Daten: name ist länger als 200 Zeichen</translation>
    </message>
    <message>
        <source>at most 200 characters</source>
        <translation>höchstens 200 Zeichen</translation>
    </message>
    <message>
        <source>the last active admin</source>
        <translation>der letzte aktive Admin</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kontakt</translation>
    </message>
    <message>
        <source>Segment %1 is dynamic: its members follow its filters and cannot be added or removed by hand</source>
        <translation>Segment %1 ist dynamisch: Seine Mitglieder folgen seinen Filtern und können nicht von Hand hinzugefügt oder entfernt werden</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>Segment</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Deal</source>
        <translation>Deal</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <source>Bulk send</source>
        <translation>Massenversand</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>Unterhaltung</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>must be objects {type: &quot;quick_reply&quot;, text} with 1 to 25 characters</source>
        <translation>müssen Objekte {type: &quot;quick_reply&quot;, text} mit 1 bis 25 Zeichen sein</translation>
    </message>
    <message>
        <source>body parameters must be {type: &quot;text&quot;, text}</source>
        <translation>Body-Parameter müssen {type: &quot;text&quot;, text} sein</translation>
    </message>
    <message>
        <source>sub_type must be quick_reply</source>
        <translation>sub_type muss quick_reply sein</translation>
    </message>
    <message>
        <source>index must name one of the template&apos;s %1 buttons (from 0)</source>
        <translation>index muss eine der %1 Schaltflächen der Vorlage bezeichnen (ab 0)</translation>
    </message>
    <message>
        <source>a quick_reply button takes one parameter {type: &quot;payload&quot;, payload}</source>
        <translation>eine quick_reply-Schaltfläche nimmt einen Parameter {type: &quot;payload&quot;, payload}</translation>
    </message>
    <message>
        <source>type must be body or button</source>
        <translation>type muss body oder button sein</translation>
    </message>
    <message>
        <source>placeholders must be numbered {{1}} to {{%1}} without gaps</source>
        <translation>Platzhalter müssen lückenlos von {{1}} bis {{%1}} nummeriert sein</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source> (reopen it to pending first)</source>
        <translation> (öffnen Sie sie zuerst wieder als ausstehend)</translation>
    </message>
    <message>
        <source>user</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>contact</source>
        <translation>Kontakt</translation>
    </message>
    <message>
        <source>deal</source>
        <translation>Deal</translation>
    </message>
    <message>
        <source>must be in the future</source>
        <translation>muss in der Zukunft liegen</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Incoming webhook</source>
        <translation>Eingehender Webhook</translation>
    </message>
    <message>
        <source>Missing X-Service-Signature: this webhook requires signed calls</source>
        <translation>X-Service-Signature fehlt: Dieser Webhook verlangt signierte Aufrufe</translation>
    </message>
    <message>
        <source>X-Service-Signature does not match the body</source>
        <translation>X-Service-Signature passt nicht zum Body</translation>
    </message>
    <message>
        <source>Invalid data: event must be a non-empty string</source>
        <translation>Ungültige Daten: event muss eine nicht leere Zeichenkette sein</translation>
    </message>
    <message>
        <source>must be a non-empty string of at most 100 characters</source>
        <translation>muss eine nicht leere Zeichenkette mit höchstens 100 Zeichen sein</translation>
    </message>
    <message>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>Zustellung</translation>
    </message>
    <message>
        <source>Webhook verification failed</source>
        <translation>Webhook-Überprüfung fehlgeschlagen</translation>
    </message>
    <message>
        <source>Missing X-Hub-Signature-256 header</source>
        <translation>Header X-Hub-Signature-256 fehlt</translation>
    </message>
    <message>
        <source>X-Hub-Signature-256 does not match the body</source>
        <translation>X-Hub-Signature-256 passt nicht zum Body</translation>
    </message>
    <message>
        <source>The webhook body must be a JSON object</source>
        <translation>Der Webhook-Body muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>This endpoint takes multipart/form-data (Content-Type: multipart/form-data; boundary=…)</source>
        <translation>Dieser Endpunkt nimmt multipart/form-data an (Content-Type: multipart/form-data; boundary=…)</translation>
    </message>
    <message>
        <source>Malformed multipart body: %1</source>
        <translation>Fehlerhafter Multipart-Body: %1</translation>
    </message>
    <message>
        <source>Required field missing: file</source>
        <translation>Pflichtfeld fehlt: file</translation>
    </message>
    <message>
        <source>is required (a multipart file part)</source>
        <translation>ist erforderlich (ein Multipart-Dateiteil)</translation>
    </message>
    <message>
        <source>Send one file per request</source>
        <translation>Senden Sie eine Datei pro Anfrage</translation>
    </message>
    <message>
        <source>was given more than once</source>
        <translation>wurde mehr als einmal angegeben</translation>
    </message>
    <message>
        <source>file must be a file part (Content-Disposition with a filename)</source>
        <translation>file muss ein Dateiteil sein (Content-Disposition mit filename)</translation>
    </message>
    <message>
        <source>Invalid data: %1 given more than once</source>
        <translation>Ungültige Daten: %1 mehr als einmal angegeben</translation>
    </message>
    <message>
        <source>given more than once</source>
        <translation>mehr als einmal angegeben</translation>
    </message>
    <message>
        <source>Invalid data: %1 must be a text field, not a file</source>
        <translation>Ungültige Daten: %1 muss ein Textfeld sein, keine Datei</translation>
    </message>
    <message>
        <source>must be text</source>
        <translation>muss Text sein</translation>
    </message>
    <message>
        <source>Invalid data: %1 is not valid UTF-8</source>
        <translation>Ungültige Daten: %1 ist kein gültiges UTF-8</translation>
    </message>
    <message>
        <source>must be UTF-8 text</source>
        <translation>muss UTF-8-Text sein</translation>
    </message>
    <message>
        <source>Invalid data: %1 must be at most %2 characters</source>
        <translation>Ungültige Daten: %1 darf höchstens %2 Zeichen haben</translation>
    </message>
    <message>
        <source>too long</source>
        <translation>zu lang</translation>
    </message>
    <message>
        <source>holds %1 deal(s)</source>
        <translation>enthält %1 Deal(s)</translation>
    </message>
    <message>
        <source>must be a string or null</source>
        <translation>muss eine Zeichenkette oder null sein</translation>
    </message>
    <message>
        <source>must be an array of strings</source>
        <translation>muss ein Array von Zeichenketten sein</translation>
    </message>
    <message>
        <source>must be non-empty strings of at most %1 characters</source>
        <translation>müssen nicht leere Zeichenketten mit höchstens %1 Zeichen sein</translation>
    </message>
    <message>
        <source>Query parameter %1 %2</source>
        <translation>Abfrageparameter %1 %2</translation>
    </message>
    <message>
        <source>must be a positive integer</source>
        <translation>muss eine positive ganze Zahl sein</translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD) or an ISO 8601 date-time</source>
        <translation>muss ein Datum (JJJJ-MM-TT) oder eine ISO-8601-Zeitangabe sein</translation>
    </message>
    <message>
        <source>must be a date or date-time</source>
        <translation>muss ein Datum oder eine Zeitangabe sein</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>muss eine Zahl sein</translation>
    </message>
    <message>
        <source>An agent sees only their own API keys</source>
        <translation>Ein Mitarbeiter sieht nur seine eigenen API-Schlüssel</translation>
    </message>
    <message>
        <source>Only an admin makes API keys for other users</source>
        <translation>Nur ein Admin erstellt API-Schlüssel für andere Benutzer</translation>
    </message>
    <message>
        <source>User no longer exists or was deactivated</source>
        <translation>Der Benutzer existiert nicht mehr oder wurde deaktiviert</translation>
    </message>
    <message>
        <source>E-mail or password is wrong</source>
        <translation>E-Mail-Adresse oder Passwort ist falsch</translation>
    </message>
    <message>
        <source>Too many failed password checks; try again in %1 s</source>
        <translation>Zu viele fehlgeschlagene Passwortprüfungen; versuchen Sie es in %1 s erneut</translation>
    </message>
    <message>
        <source>Refresh token is invalid, used or expired</source>
        <translation>Refresh-Token ist ungültig, verbraucht oder abgelaufen</translation>
    </message>
    <message>
        <source>must be {type: agent|ai|bot|system, name}</source>
        <translation>muss {type: agent|ai|bot|system, name} sein</translation>
    </message>
    <message>
        <source>Required field missing: %1 or %2</source>
        <translation>Pflichtfeld fehlt: %1 oder %2</translation>
    </message>
    <message>
        <source>%1 or %2 is required</source>
        <translation>%1 oder %2 ist erforderlich</translation>
    </message>
    <message>
        <source>Required field missing: a JSON body is required</source>
        <translation>Pflichtfeld fehlt: Ein JSON-Body ist erforderlich</translation>
    </message>
    <message>
        <source>must be an ISO 4217 currency code</source>
        <translation>muss ein ISO-4217-Währungscode sein</translation>
    </message>
    <message>
        <source>Media not found</source>
        <translation>Medium nicht gefunden</translation>
    </message>
    <message>
        <source>Invalid data: %1 must be one of %2</source>
        <translation>Ungültige Daten: %1 muss eines von %2 sein</translation>
    </message>
    <message>
        <source>Uploads are not configured</source>
        <translation>Uploads sind nicht eingerichtet</translation>
    </message>
    <message>
        <source>Invalid data: %1 and %2 must be strings</source>
        <translation>Ungültige Daten: %1 und %2 müssen Zeichenketten sein</translation>
    </message>
    <message>
        <source>Required field missing: %1 (or %2)</source>
        <translation>Pflichtfeld fehlt: %1 (oder %2)</translation>
    </message>
    <message>
        <source>Template %1 is not an approved template</source>
        <translation>Vorlage %1 ist keine genehmigte Vorlage</translation>
    </message>
    <message>
        <source>Required field missing: %1 (template %2 exists in %3)</source>
        <translation>Pflichtfeld fehlt: %1 (Vorlage %2 existiert in %3)</translation>
    </message>
    <message>
        <source>Invalid data: bulk sends go to whatsapp, telegram or instagram</source>
        <translation>Ungültige Daten: Massenversand geht an whatsapp, telegram oder instagram</translation>
    </message>
    <message>
        <source>widget visitors cannot get bulk sends</source>
        <translation>Widget-Besucher können keinen Massenversand erhalten</translation>
    </message>
    <message>
        <source>Required field missing: either %1 or %2</source>
        <translation>Pflichtfeld fehlt: entweder %1 oder %2</translation>
    </message>
    <message>
        <source>give %1 or %2</source>
        <translation>geben Sie %1 oder %2 an</translation>
    </message>
    <message>
        <source>must be an array of 1 to %1 strings</source>
        <translation>muss ein Array von 1 bis %1 Zeichenketten sein</translation>
    </message>
    <message>
        <source>must be strings</source>
        <translation>müssen Zeichenketten sein</translation>
    </message>
    <message>
        <source>Not a %1 webhook: &quot;object&quot; must be &quot;%1&quot;</source>
        <translation>Kein %1-Webhook: &quot;object&quot; muss &quot;%1&quot; sein</translation>
    </message>
    <message>
        <source>must be %1</source>
        <translation>muss %1 sein</translation>
    </message>
    <message>
        <source>The webhook has no &quot;entry&quot; array</source>
        <translation>Der Webhook hat kein &quot;entry&quot;-Array</translation>
    </message>
    <message>
        <source>Every &quot;entry&quot; item must be an object</source>
        <translation>Jedes &quot;entry&quot;-Element muss ein Objekt sein</translation>
    </message>
    <message>
        <source>items must be objects</source>
        <translation>Elemente müssen Objekte sein</translation>
    </message>
    <message>
        <source>is required (null unassigns)</source>
        <translation>ist erforderlich (null hebt die Zuweisung auf)</translation>
    </message>
    <message>
        <source>must be a user id or null</source>
        <translation>muss eine Benutzer-ID oder null sein</translation>
    </message>
    <message>
        <source>Missing X-Telegram-Bot-Api-Secret-Token header</source>
        <translation>Header X-Telegram-Bot-Api-Secret-Token fehlt</translation>
    </message>
    <message>
        <source>X-Telegram-Bot-Api-Secret-Token does not match</source>
        <translation>X-Telegram-Bot-Api-Secret-Token stimmt nicht überein</translation>
    </message>
    <message>
        <source>The webhook body must be a Telegram Update (a JSON object)</source>
        <translation>Der Webhook-Body muss ein Telegram-Update sein (ein JSON-Objekt)</translation>
    </message>
    <message>
        <source>Not a Telegram Update: %1</source>
        <translation>Kein Telegram-Update: %1</translation>
    </message>
    <message>
        <source>Invalid data: %1 must have %2 to 1024 characters</source>
        <translation>Ungültige Daten: %1 muss %2 bis 1024 Zeichen haben</translation>
    </message>
    <message>
        <source>%1 to 1024 characters</source>
        <translation>%1 bis 1024 Zeichen</translation>
    </message>
    <message>
        <source>User no longer exists</source>
        <translation>Der Benutzer existiert nicht mehr</translation>
    </message>
    <message>
        <source>Only an admin changes roles and access</source>
        <translation>Nur ein Admin ändert Rollen und Zugriffsrechte</translation>
    </message>
    <message>
        <source>The current password is wrong</source>
        <translation>Das aktuelle Passwort ist falsch</translation>
    </message>
    <message>
        <source>Unknown webhook %1</source>
        <translation>Unbekannter Webhook %1</translation>
    </message>
    <message>
        <source>Too Many Requests</source>
        <translation>Zu viele Anfragen</translation>
    </message>
    <message>
        <source>Authentication required: send Authorization: Bearer &lt;visitor token&gt;</source>
        <translation>Authentifizierung erforderlich: Senden Sie Authorization: Bearer &lt;visitor token&gt;</translation>
    </message>
    <message>
        <source>Invalid visitor token</source>
        <translation>Ungültiges Besucher-Token</translation>
    </message>
    <message>
        <source>Too many open event streams for this visitor (at most %1)</source>
        <translation>Zu viele offene Ereignisströme für diesen Besucher (höchstens %1)</translation>
    </message>
    <message>
        <source>Too many open event streams; try again later</source>
        <translation>Zu viele offene Ereignisströme; versuchen Sie es später erneut</translation>
    </message>
    <message>
        <source>must have at most %1 steps</source>
        <translation>darf höchstens %1 Schritte haben</translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2</source>
        <translation>muss eine ganze Zahl von %1 bis %2 sein</translation>
    </message>
    <message>
        <source>must be later than %1</source>
        <translation>muss später als %1 sein</translation>
    </message>
    <message>
        <source>must be an array of weekdays from 1 (Monday) to 7</source>
        <translation>muss ein Array von Wochentagen von 1 (Montag) bis 7 sein</translation>
    </message>
    <message>
        <source>must be a date-time with a time zone</source>
        <translation>muss eine Zeitangabe mit Zeitzone sein</translation>
    </message>
    <message>
        <source>A campaign cannot go from %1 to %2</source>
        <translation>Eine Kampagne kann nicht von %1 zu %2 wechseln</translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation>Kampagne</translation>
    </message>
    <message>
        <source>Unknown merge field: %1</source>
        <translation>Unbekanntes Seriendruckfeld: %1</translation>
    </message>
    <message>
        <source>A campaign can be changed only while DRAFT or SCHEDULED (it is %1)</source>
        <translation>Eine Kampagne kann nur als DRAFT oder SCHEDULED geändert werden (sie ist %1)</translation>
    </message>
    <message>
        <source>A campaign can be deleted only while DRAFT or SCHEDULED (it is %1)</source>
        <translation>Eine Kampagne kann nur als DRAFT oder SCHEDULED gelöscht werden (sie ist %1)</translation>
    </message>
    <message>
        <source>No one in the audience can be reached on this channel</source>
        <translation>Niemand in der Zielgruppe ist auf diesem Kanal erreichbar</translation>
    </message>
    <message>
        <source>No message could be delivered</source>
        <translation>Keine Nachricht konnte zugestellt werden</translation>
    </message>
    <message>
        <source>Unsubscribe entry</source>
        <translation>Abmeldeeintrag</translation>
    </message>
    <message>
        <source>must have at most %1 items</source>
        <translation>darf höchstens %1 Elemente haben</translation>
    </message>
    <message>
        <source>WhatsApp is not set up (Settings, Channels)</source>
        <translation>WhatsApp ist nicht eingerichtet (Einstellungen, Kanäle)</translation>
    </message>
    <message>
        <source>E-mail sending is not set up (Settings, E-mail)</source>
        <translation>E-Mail-Versand ist nicht eingerichtet (Einstellungen, E-Mail)</translation>
    </message>
    <message>
        <source>Paused after %1 send errors in a row: %2</source>
        <translation>Pausiert nach %1 Sendefehlern in Folge: %2</translation>
    </message>
    <message>
        <source>none (no encryption) is allowed only for a loopback host</source>
        <translation>none (keine Verschlüsselung) ist nur für einen Loopback-Host erlaubt</translation>
    </message>
    <message>
        <source>must be an RSA private key in PEM</source>
        <translation>muss ein privater RSA-Schlüssel im PEM-Format sein</translation>
    </message>
    <message>
        <source>give recipientId, or envelopeTo or messageId naming it</source>
        <translation>geben Sie recipientId an, oder envelopeTo oder messageId, die ihn bezeichnen</translation>
    </message>
    <message>
        <source>Campaign recipient</source>
        <translation>Kampagnenempfänger</translation>
    </message>
    <message>
        <source>SMS sending is not set up (Settings, SMS)</source>
        <translation>SMS-Versand ist nicht eingerichtet (Einstellungen, SMS)</translation>
    </message>
    <message>
        <source>Missing X-Twilio-Signature header</source>
        <translation>Header X-Twilio-Signature fehlt</translation>
    </message>
    <message>
        <source>X-Twilio-Signature does not match</source>
        <translation>X-Twilio-Signature stimmt nicht überein</translation>
    </message>
    <message>
        <source>A status callback needs MessageSid and MessageStatus</source>
        <translation>Ein Status-Callback braucht MessageSid und MessageStatus</translation>
    </message>
    <message>
        <source>not a valid URL</source>
        <translation>keine gültige URL</translation>
    </message>
    <message>
        <source>plain http is allowed only on a loopback address</source>
        <translation>unverschlüsseltes http ist nur an einer Loopback-Adresse erlaubt</translation>
    </message>
    <message>
        <source>the scheme must be https</source>
        <translation>das Schema muss https sein</translation>
    </message>
    <message>
        <source>must be https (http only on a loopback address), got &quot;%1&quot;: %2</source>
        <translation>muss https sein (http nur an einer Loopback-Adresse), erhalten „%1“: %2</translation>
    </message>
    <message>
        <source>must be an account SID (AC and 32 hex digits), got &quot;%1&quot;</source>
        <translation>muss eine Konto-SID sein (AC und 32 Hexziffern), erhalten „%1“</translation>
    </message>
    <message>
        <source>must be a phone number (E.164, +905321234567) or an alphanumeric sender id of at most 11 characters, got &quot;%1&quot;</source>
        <translation>muss eine Telefonnummer (E.164, +4915112345678) oder eine alphanumerische Absenderkennung mit höchstens 11 Zeichen sein, erhalten „%1“</translation>
    </message>
    <message>
        <source>must be an integer from %1 to %2</source>
        <translation>muss eine ganze Zahl von %1 bis %2 sein</translation>
    </message>
    <message>
        <source>must be an array of at most %1 texts</source>
        <translation>muss ein Array von höchstens %1 Texten sein</translation>
    </message>
    <message>
        <source>Knowledge entry</source>
        <translation>Wissenseintrag</translation>
    </message>
    <message>
        <source>The file holds no rows</source>
        <translation>Die Datei enthält keine Zeilen</translation>
    </message>
    <message>
        <source>The file has no column %1 (columns: %2)</source>
        <translation>Die Datei hat keine Spalte %1 (Spalten: %2)</translation>
    </message>
    <message>
        <source>Unchanged: the same as entry %1</source>
        <translation>Unverändert: gleich wie Eintrag %1</translation>
    </message>
    <message>
        <source>must be a language code such as tr or en</source>
        <translation>muss ein Sprachcode wie tr oder en sein</translation>
    </message>
    <message>
        <source>a tag must be at most %1 characters</source>
        <translation>ein Tag darf höchstens %1 Zeichen haben</translation>
    </message>
    <message>
        <source>must hold at most %1 tags</source>
        <translation>darf höchstens %1 Tags enthalten</translation>
    </message>
    <message>
        <source>must hold at most %1 turns</source>
        <translation>darf höchstens %1 Gesprächsrunden enthalten</translation>
    </message>
    <message>
        <source>must be an object {role, content}</source>
        <translation>muss ein Objekt {role, content} sein</translation>
    </message>
    <message>
        <source>must be an integer</source>
        <translation>muss eine ganze Zahl sein</translation>
    </message>
    <message>
        <source>must be 1 or -1 for THUMBS</source>
        <translation>muss 1 oder -1 für THUMBS sein</translation>
    </message>
    <message>
        <source>must be 1 to 5 for SCALE</source>
        <translation>muss 1 bis 5 für SCALE sein</translation>
    </message>
    <message>
        <source>AI answer</source>
        <translation>KI-Antwort</translation>
    </message>
    <message>
        <source>The period must end after it starts</source>
        <translation>Der Zeitraum muss nach seinem Beginn enden</translation>
    </message>
    <message>
        <source>must be after from</source>
        <translation>muss nach from liegen</translation>
    </message>
    <message>
        <source>The period must be at most %1 days long</source>
        <translation>Der Zeitraum darf höchstens %1 Tage lang sein</translation>
    </message>
    <message>
        <source>must be at most %1 days before to</source>
        <translation>darf höchstens %1 Tage vor to liegen</translation>
    </message>
    <message>
        <source>Suggestion</source>
        <translation>Vorschlag</translation>
    </message>
    <message>
        <source>The file is not a CSV text file</source>
        <translation>Die Datei ist keine CSV-Textdatei</translation>
    </message>
    <message>
        <source>must be CSV text</source>
        <translation>muss CSV-Text sein</translation>
    </message>
    <message>
        <source>This endpoint takes a CSV file: send it as the body with Content-Type text/csv, or as the file part of multipart/form-data</source>
        <translation>Dieser Endpunkt nimmt eine CSV-Datei an: Senden Sie sie als Body mit Content-Type text/csv oder als Dateiteil von multipart/form-data</translation>
    </message>
    <message>
        <source>This API key lacks the scope %1</source>
        <translation>Diesem API-Schlüssel fehlt die Berechtigung %1</translation>
    </message>
    <message>
        <source>must be off, suggest or on, got &quot;%1&quot;</source>
        <translation>muss off, suggest oder on sein, erhalten „%1“</translation>
    </message>
    <message>
        <source>The database %1 could not be copied: %2</source>
        <translation>Die Datenbank %1 konnte nicht kopiert werden: %2</translation>
    </message>
    <message>
        <source>There is no database to back up at %1</source>
        <translation>Unter %1 gibt es keine Datenbank zum Sichern</translation>
    </message>
    <message>
        <source>The data directory %1 already holds a database or uploads: restore into an empty data directory, or replace them with --force (they are kept aside)</source>
        <translation>Das Datenverzeichnis %1 enthält bereits eine Datenbank oder Uploads: Stellen Sie in ein leeres Datenverzeichnis wieder her oder ersetzen Sie sie mit --force (sie werden beiseitegelegt und aufbewahrt)</translation>
    </message>
    <message>
        <source>the database in it fails SQLite&apos;s check (%1)</source>
        <translation>die enthaltene Datenbank besteht die SQLite-Prüfung nicht (%1)</translation>
    </message>
    <message>
        <source>%1 holds a database of a newer Liaison (schema %2, this program knows %3): update Liaison to restore it</source>
        <translation>%1 enthält eine Datenbank einer neueren Liaison-Version (Schema %2, dieses Programm kennt bis %3): Aktualisieren Sie Liaison, um sie wiederherzustellen</translation>
    </message>
    <message>
        <source>it ends early (the file was cut short)</source>
        <translation>sie endet vorzeitig (die Datei wurde abgeschnitten)</translation>
    </message>
    <message>
        <source>its compressed data is damaged (the file was changed after it was written)</source>
        <translation>ihre komprimierten Daten sind beschädigt (die Datei wurde nach dem Schreiben verändert)</translation>
    </message>
    <message>
        <source>a file in it does not match the checksum the backup recorded</source>
        <translation>eine enthaltene Datei stimmt nicht mit der Prüfsumme überein, die die Sicherung erfasst hat</translation>
    </message>
    <message>
        <source>its list of contents is missing or does not match what it holds</source>
        <translation>ihr Inhaltsverzeichnis fehlt oder stimmt nicht mit dem tatsächlichen Inhalt überein</translation>
    </message>
    <message>
        <source>The disk is full: the backup could not be written to %1</source>
        <translation>Die Festplatte ist voll: Die Sicherung konnte nicht nach %1 geschrieben werden</translation>
    </message>
    <message>
        <source>The backup could not be written to %1: %2</source>
        <translation>Die Sicherung konnte nicht nach %1 geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is not a Liaison backup: nothing was restored</source>
        <translation>%1 ist keine Liaison-Sicherung: Es wurde nichts wiederhergestellt</translation>
    </message>
    <message>
        <source>The backup %1 is damaged: %2. Nothing was restored</source>
        <translation>Die Sicherung %1 ist beschädigt: %2. Es wurde nichts wiederhergestellt</translation>
    </message>
    <message>
        <source>%1 was written by a newer Liaison (backup format %2): update Liaison to restore it</source>
        <translation>%1 wurde von einer neueren Liaison-Version geschrieben (Sicherungsformat %2): Aktualisieren Sie Liaison, um sie wiederherzustellen</translation>
    </message>
    <message>
        <source>its folder cannot be created</source>
        <translation>der Ordner dafür kann nicht erstellt werden</translation>
    </message>
    <message>
        <source>%1 could not be moved there</source>
        <translation>%1 konnte nicht dorthin verschoben werden</translation>
    </message>
    <message>
        <source>Contact %1 was merged into %2</source>
        <translation>Kontakt %1 wurde mit %2 zusammengeführt</translation>
    </message>
    <message>
        <source>must hold at most %1 contact ids</source>
        <translation>darf höchstens %1 Kontakt-IDs enthalten</translation>
    </message>
    <message>
        <source>must not hold an empty id</source>
        <translation>darf keine leere ID enthalten</translation>
    </message>
    <message>
        <source>must not hold the contact kept: %1</source>
        <translation>darf den beibehaltenen Kontakt nicht enthalten: %1</translation>
    </message>
    <message>
        <source>holds %1 more than once</source>
        <translation>enthält %1 mehrfach</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Zusammenführung</translation>
    </message>
    <message>
        <source>Merge %1 was undone already</source>
        <translation>Zusammenführung %1 wurde bereits rückgängig gemacht</translation>
    </message>
    <message>
        <source>A merge can be undone within %1 days only</source>
        <translation>Eine Zusammenführung lässt sich nur innerhalb von %1 Tagen rückgängig machen</translation>
    </message>
    <message>
        <source>Contact %1, which the merge kept, no longer exists</source>
        <translation>Kontakt %1, den die Zusammenführung beibehalten hat, existiert nicht mehr</translation>
    </message>
    <message>
        <source>Contact %1 exists already</source>
        <translation>Kontakt %1 existiert bereits</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Import</translation>
    </message>
    <message>
        <source>Unchanged: the same as contact %1</source>
        <translation>Unverändert: gleich wie Kontakt %1</translation>
    </message>
    <message>
        <source>fills %1 from two columns</source>
        <translation>füllt %1 aus zwei Spalten</translation>
    </message>
    <message>
        <source>fills no name or no e-mail or phone column</source>
        <translation>füllt keinen Namen oder keine Spalte für E-Mail oder Telefon</translation>
    </message>
    <message>
        <source>must be a JSON object of column → field</source>
        <translation>muss ein JSON-Objekt aus Spalte → Feld sein</translation>
    </message>
    <message>
        <source>must map each column to a field name</source>
        <translation>muss jede Spalte einem Feldnamen zuordnen</translation>
    </message>
    <message>
        <source>names %1, a column the file does not have</source>
        <translation>nennt %1, eine Spalte, die die Datei nicht hat</translation>
    </message>
    <message>
        <source>names %1, which is not a field</source>
        <translation>nennt %1, das kein Feld ist</translation>
    </message>
    <message>
        <source>The mapping must fill a name (name, firstName or lastName) and an e-mail or phone</source>
        <translation>Die Zuordnung muss einen Namen (name, firstName oder lastName) und eine E-Mail-Adresse oder Telefonnummer füllen</translation>
    </message>
    <message>
        <source>No contact has the e-mail %1</source>
        <translation>Kein Kontakt hat die E-Mail-Adresse %1</translation>
    </message>
    <message>
        <source>names no contact</source>
        <translation>nennt keinen Kontakt</translation>
    </message>
    <message>
        <source>A deal named %1 already exists (%2)</source>
        <translation>Ein Deal namens %1 existiert bereits (%2)</translation>
    </message>
    <message>
        <source>Unchanged: the same as deal %1</source>
        <translation>Unverändert: gleich wie Deal %1</translation>
    </message>
    <message>
        <source>A task titled %1 already exists (%2)</source>
        <translation>Eine Aufgabe mit dem Titel %1 existiert bereits (%2)</translation>
    </message>
    <message>
        <source>Unchanged: the same as task %1</source>
        <translation>Unverändert: gleich wie Aufgabe %1</translation>
    </message>
</context>
<context>
    <name>NewApiKeyDialog</name>
    <message>
        <source>API key created</source>
        <translation>API-Schlüssel erstellt</translation>
    </message>
    <message>
        <source>The key &quot;%1&quot; was created. Copy it now:</source>
        <translation>Der Schlüssel „%1“ wurde erstellt. Kopieren Sie ihn jetzt:</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>&lt;b&gt;This key will not be shown again.&lt;/b&gt; Store it somewhere safe; if it is lost, revoke it and create a new one.</source>
        <translation>&lt;b&gt;Dieser Schlüssel wird nicht noch einmal angezeigt.&lt;/b&gt; Bewahren Sie ihn sicher auf; geht er verloren, widerrufen Sie ihn und erstellen Sie einen neuen.</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopiert</translation>
    </message>
</context>
<context>
    <name>NotificationCenter</name>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n neu</numerusform>
            <numerusform>%n neu</numerusform>
        </translation>
    </message>
    <message>
        <source>No notifications</source>
        <translation>Keine Benachrichtigungen</translation>
    </message>
    <message>
        <source>Notifications (%1)</source>
        <translation>Benachrichtigungen (%1)</translation>
    </message>
    <message>
        <source>Mark all as read</source>
        <translation>Alle als gelesen markieren</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Close (it stays in the notifications list)</source>
        <translation>Schließen (bleibt in der Benachrichtigungsliste)</translation>
    </message>
    <message numerus="yes">
        <source>%n more waiting</source>
        <translation>
            <numerusform>%n weitere wartet</numerusform>
            <numerusform>%n weitere warten</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PagerBar</name>
    <message>
        <source>Previous</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>%1–%2 of %3</source>
        <translation>%1–%2 von %3</translation>
    </message>
</context>
<context>
    <name>PasswordDialog</name>
    <message>
        <source>Set password</source>
        <translation>Passwort festlegen</translation>
    </message>
    <message>
        <source>A new password for %1. They are signed out everywhere and sign in again with it.</source>
        <translation>Ein neues Passwort für %1. Die Person wird überall abgemeldet und meldet sich damit neu an.</translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>mindestens %n Zeichen</numerusform>
            <numerusform>mindestens %n Zeichen</numerusform>
        </translation>
    </message>
    <message>
        <source>New password:</source>
        <translation>Neues Passwort:</translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation>Wiederholen:</translation>
    </message>
    <message>
        <source>Change password</source>
        <translation>Passwort ändern</translation>
    </message>
    <message>
        <source>A new password for your account (%1). Your other sessions end; this window stays signed in.</source>
        <translation>Ein neues Passwort für Ihr Konto (%1). Ihre anderen Sitzungen enden; dieses Fenster bleibt angemeldet.</translation>
    </message>
    <message>
        <source>Current password:</source>
        <translation>Aktuelles Passwort:</translation>
    </message>
    <message>
        <source>The current password is wrong.</source>
        <translation>Das aktuelle Passwort ist falsch.</translation>
    </message>
    <message>
        <source>Your password was changed.</source>
        <translation>Ihr Passwort wurde geändert.</translation>
    </message>
</context>
<context>
    <name>PipelineBoard</name>
    <message>
        <source>Pipeline:</source>
        <translation>Pipeline:</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;%3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>Value per stage</source>
        <translation>Wert je Phase</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Deals</translation>
    </message>
    <message>
        <source>New deal…</source>
        <translation>Neuer Deal…</translation>
    </message>
    <message>
        <source>Edit pipelines…</source>
        <translation>Pipelines bearbeiten…</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Show or hide the value per stage chart</source>
        <translation>Das Diagramm „Wert je Phase“ ein- oder ausblenden</translation>
    </message>
    <message>
        <source>Value per stage (%1)</source>
        <translation>Wert je Phase (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 %3 in %n deal(s)</source>
        <translation>
            <numerusform>%1: %2 %3 in %n Deal</numerusform>
            <numerusform>%1: %2 %3 in %n Deals</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 M</source>
        <comment>millions</comment>
        <translation>%1 Mio.</translation>
    </message>
    <message>
        <source>%1 K</source>
        <comment>thousands</comment>
        <translation>%1 Tsd.</translation>
    </message>
    <message>
        <source>The currency of the summary and the chart (amounts in different currencies are never added)</source>
        <translation>Die Währung der Übersicht und des Diagramms (Beträge in verschiedenen Währungen werden nie addiert)</translation>
    </message>
    <message>
        <source>%1 %4 · weighted %2 %4 · average %3 %4</source>
        <translation>%1 %4 · gewichtet %2 %4 · Ø %3 %4</translation>
    </message>
    <message numerus="yes">
        <source>Open: %n deal(s); in %1 (%2): %3</source>
        <translation>
            <numerusform>Offen: %n Deal; in %1 (%2): %3</numerusform>
            <numerusform>Offen: %n Deals; in %1 (%2): %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Open: %n deal(s) · %1</source>
        <translation>
            <numerusform>Offen: %n Deal · %1</numerusform>
            <numerusform>Offen: %n Deals · %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Search deals…</source>
        <translation>Deals suchen…</translation>
    </message>
    <message>
        <source>Search deals</source>
        <translation>Deals suchen</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>Meine</translation>
    </message>
    <message>
        <source>Only the deals assigned to you</source>
        <translation>Nur die Ihnen zugewiesenen Deals</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>List</source>
        <translation>Liste</translation>
    </message>
    <message>
        <source>Show the deals as a list you can sort instead of the board</source>
        <translation>Die Deals als sortierbare Liste statt als Board anzeigen</translation>
    </message>
    <message>
        <source>The %1 most recent of %2 deals; search to find the others.</source>
        <translation>Die %1 neuesten von %2 Deals; suchen Sie, um die anderen zu finden.</translation>
    </message>
    <message>
        <source>No deals in this pipeline yet. A deal follows a sale from the first talk to won or lost, with its amount and the next step.</source>
        <translation>Noch keine Deals in dieser Pipeline. Ein Deal begleitet einen Verkauf vom ersten Gespräch bis gewonnen oder verloren, mit seinem Betrag und dem nächsten Schritt.</translation>
    </message>
    <message>
        <source>No deal in this pipeline matches “%1”.</source>
        <translation>Kein Deal in dieser Pipeline entspricht „%1“.</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Suche leeren</translation>
    </message>
    <message>
        <source>None of this pipeline&apos;s deals is yours.</source>
        <translation>Keiner der Deals dieser Pipeline gehört Ihnen.</translation>
    </message>
    <message>
        <source>Show everyone&apos;s deals</source>
        <translation>Deals aller anzeigen</translation>
    </message>
    <message>
        <source>No open deals in this pipeline.</source>
        <translation>Keine offenen Deals in dieser Pipeline.</translation>
    </message>
    <message>
        <source>Show all deals</source>
        <translation>Alle Deals anzeigen</translation>
    </message>
    <message>
        <source>%1 since %2</source>
        <translation>%1 seit %2</translation>
    </message>
    <message>
        <source>Only the stage %1</source>
        <translation>Nur die Phase %1</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the deals of this pipeline the search shows as a CSV file</source>
        <translation>Die Deals dieser Pipeline, die die Suche anzeigt, als CSV-Datei speichern</translation>
    </message>
    <message>
        <source>Export deals to CSV</source>
        <translation>Deals als CSV exportieren</translation>
    </message>
    <message>
        <source>deals.csv</source>
        <translation>deals.csv</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 wurde nicht gespeichert: %2</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>Import…</translation>
    </message>
    <message>
        <source>Import deals into this pipeline from a CSV file</source>
        <translation>Deals aus einer CSV-Datei in diese Pipeline importieren</translation>
    </message>
    <message>
        <source>Import deals into %1</source>
        <translation>Deals in %1 importieren</translation>
    </message>
    <message>
        <source>A deal with the same name and contact exists in this pipeline:</source>
        <translation>Wenn in dieser Pipeline ein Deal mit demselben Namen und Kontakt existiert:</translation>
    </message>
    <message>
        <source>Contact&apos;s e-mail</source>
        <translation>E-Mail des Kontakts</translation>
    </message>
</context>
<context>
    <name>PipelineEditorDialog</name>
    <message>
        <source>Edit pipelines</source>
        <translation>Pipelines bearbeiten</translation>
    </message>
    <message>
        <source>New pipeline name</source>
        <translation>Name der neuen Pipeline</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Delete pipeline…</source>
        <translation>Pipeline löschen…</translation>
    </message>
    <message>
        <source>Default pipeline (new deals go here)</source>
        <translation>Standard-Pipeline (neue Deals kommen hierher)</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Probability %</source>
        <translation>Wahrscheinlichkeit %</translation>
    </message>
    <message>
        <source>Add stage</source>
        <translation>Phase hinzufügen</translation>
    </message>
    <message>
        <source>Remove stage</source>
        <translation>Phase entfernen</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Nach unten</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (Standard)</translation>
    </message>
    <message>
        <source>A closing stage: it stays last and cannot be removed.</source>
        <translation>Eine Abschlussphase: Sie bleibt die letzte und kann nicht entfernt werden.</translation>
    </message>
    <message>
        <source>New stage</source>
        <translation>Neue Phase</translation>
    </message>
    <message>
        <source>Write the new pipeline&apos;s name first.</source>
        <translation>Schreiben Sie zuerst den Namen der neuen Pipeline.</translation>
    </message>
    <message>
        <source>Lead</source>
        <translation>Lead</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>Angebot</translation>
    </message>
    <message>
        <source>Negotiation</source>
        <translation>Verhandlung</translation>
    </message>
    <message>
        <source>Delete pipeline</source>
        <translation>Pipeline löschen</translation>
    </message>
    <message>
        <source>Delete the pipeline “%1”?</source>
        <translation>Die Pipeline „%1“ löschen?</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Rotten after (days)</source>
        <translation>Verstaubt nach (Tagen)</translation>
    </message>
    <message>
        <source>A deal that stays this many days in the stage is flagged on its card; 0: never.</source>
        <translation>Ein Deal, der so viele Tage in der Phase bleibt, wird auf seiner Karte markiert; 0: nie.</translation>
    </message>
</context>
<context>
    <name>RecordPicker</name>
    <message>
        <source>Type a name, e-mail, phone or company</source>
        <translation>Name, E-Mail, Telefon oder Firma eingeben</translation>
    </message>
    <message>
        <source>Type a deal&apos;s or its contact&apos;s name</source>
        <translation>Namen eines Deals oder seines Kontakts eingeben</translation>
    </message>
</context>
<context>
    <name>RuleGroupWidget</name>
    <message>
        <source>All of these (AND)</source>
        <translation>Alle diese (AND)</translation>
    </message>
    <message>
        <source>Any of these (OR)</source>
        <translation>Eine dieser (OR)</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>Regel hinzufügen</translation>
    </message>
    <message>
        <source>Add group</source>
        <translation>Gruppe hinzufügen</translation>
    </message>
    <message>
        <source>A group of rules with its own AND/OR (up to %1 levels)</source>
        <translation>Eine Regelgruppe mit eigenem AND/OR (bis zu %1 Ebenen)</translation>
    </message>
    <message>
        <source>Remove this group</source>
        <translation>Diese Gruppe entfernen</translation>
    </message>
</context>
<context>
    <name>RuleRowWidget</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Lead score</source>
        <translation>Lead-Score</translation>
    </message>
    <message>
        <source>Last message</source>
        <translation>Letzte Nachricht</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Nachrichten</translation>
    </message>
    <message>
        <source>Sentiment</source>
        <translation>Stimmung</translation>
    </message>
    <message>
        <source>Custom field…</source>
        <translation>Benutzerdefiniertes Feld…</translation>
    </message>
    <message>
        <source>has tag</source>
        <translation>hat Tag</translation>
    </message>
    <message>
        <source>is</source>
        <translation>ist</translation>
    </message>
    <message>
        <source>does not have tag</source>
        <translation>hat nicht das Tag</translation>
    </message>
    <message>
        <source>is not</source>
        <translation>ist nicht</translation>
    </message>
    <message>
        <source>has tag (contains)</source>
        <translation>hat Tag (enthält)</translation>
    </message>
    <message>
        <source>contains</source>
        <translation>enthält</translation>
    </message>
    <message>
        <source>lacks tag (not contains)</source>
        <translation>fehlt Tag (enthält nicht)</translation>
    </message>
    <message>
        <source>does not contain</source>
        <translation>enthält nicht</translation>
    </message>
    <message>
        <source>has a tag starting with</source>
        <translation>hat ein Tag, das beginnt mit</translation>
    </message>
    <message>
        <source>starts with</source>
        <translation>beginnt mit</translation>
    </message>
    <message>
        <source>after / within the last</source>
        <translation>nach / innerhalb der letzten</translation>
    </message>
    <message>
        <source>greater than</source>
        <translation>größer als</translation>
    </message>
    <message>
        <source>before / older than</source>
        <translation>vor / älter als</translation>
    </message>
    <message>
        <source>less than</source>
        <translation>kleiner als</translation>
    </message>
    <message>
        <source>between</source>
        <translation>zwischen</translation>
    </message>
    <message>
        <source>is empty</source>
        <translation>ist leer</translation>
    </message>
    <message>
        <source>is not empty</source>
        <translation>ist nicht leer</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>positive</source>
        <translation>positiv</translation>
    </message>
    <message>
        <source>negative</source>
        <translation>negativ</translation>
    </message>
    <message>
        <source>neutral</source>
        <translation>neutral</translation>
    </message>
    <message>
        <source>and</source>
        <translation>und</translation>
    </message>
    <message>
        <source>Remove this rule</source>
        <translation>Diese Regel entfernen</translation>
    </message>
    <message>
        <source>30d or 2025-01-31</source>
        <translation>30d oder 2025-01-31</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Firma</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>City</source>
        <translation>Ort</translation>
    </message>
    <message>
        <source>Country</source>
        <translation>Land</translation>
    </message>
</context>
<context>
    <name>SecretDialog</name>
    <message>
        <source>Copy this secret now: it is not shown again. Receivers use it to check the X-Service-Signature header.</source>
        <translation>Kopieren Sie dieses Geheimnis jetzt: Es wird nicht noch einmal angezeigt. Empfänger prüfen damit den Header X-Service-Signature.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
</context>
<context>
    <name>SegmentDialog</name>
    <message>
        <source>New segment</source>
        <translation>Neues Segment</translation>
    </message>
    <message>
        <source>Edit segment %1</source>
        <translation>Segment %1 bearbeiten</translation>
    </message>
    <message>
        <source>Dynamic: members follow the rules (otherwise a fixed list, filled once)</source>
        <translation>Dynamisch: Mitglieder folgen den Regeln (sonst eine feste Liste, einmal gefüllt)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Add a rule to see how many contacts match.</source>
        <translation>Fügen Sie eine Regel hinzu, um zu sehen, wie viele Kontakte passen.</translation>
    </message>
    <message>
        <source>1 contact matches now</source>
        <translation>1 Kontakt passt jetzt</translation>
    </message>
    <message>
        <source>%1 contacts match now</source>
        <translation>%1 Kontakte passen jetzt</translation>
    </message>
    <message>
        <source>Incomplete rule: %1</source>
        <translation>Unvollständige Regel: %1</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>Wird gezählt…</translation>
    </message>
    <message>
        <source>Fill in each rule to see how many contacts match.</source>
        <translation>Füllen Sie jede Regel aus, um zu sehen, wie viele Kontakte passen.</translation>
    </message>
</context>
<context>
    <name>SegmentsPanel</name>
    <message>
        <source>Segments</source>
        <translation>Segmente</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Neu…</translation>
    </message>
    <message>
        <source>Create a segment from rules</source>
        <translation>Ein Segment aus Regeln erstellen</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>Momentaufnahme</translation>
    </message>
    <message>
        <source>Save the current members as a new static segment</source>
        <translation>Die aktuellen Mitglieder als neues statisches Segment speichern</translation>
    </message>
    <message>
        <source>Add to segment…</source>
        <translation>Zum Segment hinzufügen…</translation>
    </message>
    <message>
        <source>Add the selected contacts to a static segment</source>
        <translation>Die ausgewählten Kontakte einem statischen Segment hinzufügen</translation>
    </message>
    <message>
        <source>All contacts</source>
        <translation>Alle Kontakte</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (%2, static)</source>
        <translation>%1 (%2, statisch)</translation>
    </message>
    <message>
        <source>Edit segment</source>
        <translation>Segment bearbeiten</translation>
    </message>
    <message>
        <source>Delete segment</source>
        <translation>Segment löschen</translation>
    </message>
    <message>
        <source>Delete the segment %1? Its contacts are kept.</source>
        <translation>Das Segment %1 löschen? Seine Kontakte bleiben erhalten.</translation>
    </message>
    <message>
        <source>Add to segment</source>
        <translation>Zum Segment hinzufügen</translation>
    </message>
    <message>
        <source>Select one or more contacts in the table first.</source>
        <translation>Wählen Sie zuerst einen oder mehrere Kontakte in der Tabelle aus.</translation>
    </message>
    <message>
        <source>Contacts are added to static segments only, and there is none yet. Create one with New… and clear &quot;Dynamic&quot;.</source>
        <translation>Kontakte werden nur statischen Segmenten hinzugefügt, und es gibt noch keines. Erstellen Sie eines mit „Neu…“ und deaktivieren Sie „Dynamisch“.</translation>
    </message>
    <message>
        <source>Add 1 contact to:</source>
        <translation>1 Kontakt hinzufügen zu:</translation>
    </message>
    <message>
        <source>Add %1 contacts to:</source>
        <translation>%1 Kontakte hinzufügen zu:</translation>
    </message>
    <message>
        <source>%1 (static)</source>
        <translation>%1 (statisch)</translation>
    </message>
    <message>
        <source>%1 (snapshot %2)</source>
        <translation>%1 (Momentaufnahme %2)</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API-Schlüssel</translation>
    </message>
</context>
<context>
    <name>SettingsForm</name>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Saving is not available here.</source>
        <translation>Speichern ist hier nicht verfügbar.</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Saved. The changes take effect at the next start.</source>
        <translation>Gespeichert. Die Änderungen gelten ab dem nächsten Start.</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
</context>
<context>
    <name>SignInDialog</name>
    <message>
        <source>Sign in to Liaison</source>
        <translation>Bei Liaison anmelden</translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation>name@firma.de</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-Mail:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Passwort:</translation>
    </message>
    <message>
        <source>Sign in</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Could not sign in: %1</source>
        <translation>Anmeldung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>E-mail or password is wrong.</source>
        <translation>E-Mail-Adresse oder Passwort ist falsch.</translation>
    </message>
</context>
<context>
    <name>SmsPage</name>
    <message>
        <source>The SMS provider campaigns send text messages through (the Twilio Messages API or a compatible one). The auth token is kept in the system keychain; changes take effect at the next start.</source>
        <translation>Der SMS-Anbieter, über den Kampagnen Textnachrichten senden (die Twilio Messages API oder eine kompatible). Das Auth-Token wird im Schlüsselbund des Systems gespeichert; Änderungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>SMS provider</source>
        <translation>SMS-Anbieter</translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation>API-Basis-URL</translation>
    </message>
    <message>
        <source>Account SID</source>
        <translation>Konto-SID</translation>
    </message>
    <message>
        <source>AC and 32 hex digits</source>
        <translation>AC und 32 Hexziffern</translation>
    </message>
    <message>
        <source>Auth token</source>
        <translation>Auth-Token</translation>
    </message>
    <message>
        <source>Remove the stored token</source>
        <translation>Gespeichertes Token entfernen</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Absender</translation>
    </message>
    <message>
        <source>+908501234567 or a sender name such as ORNEK</source>
        <translation>+4930123456 oder ein Absendername wie BEISPIEL</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Campaign pace</source>
        <translation>Kampagnentempo</translation>
    </message>
    <message>
        <source>Keep within what the provider allows for the account and the sender; messages over its rate are refused.</source>
        <translation>Bleiben Sie innerhalb dessen, was der Anbieter für Konto und Absender erlaubt; Nachrichten über seiner Rate werden abgelehnt.</translation>
    </message>
    <message>
        <source>Messages per second</source>
        <translation>Nachrichten pro Sekunde</translation>
    </message>
    <message>
        <source> a second</source>
        <translation> pro Sekunde</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Keine Grenze</translation>
    </message>
    <message>
        <source>Messages at once</source>
        <translation>Nachrichten gleichzeitig</translation>
    </message>
    <message>
        <source>At most per hour</source>
        <translation>Höchstens pro Stunde</translation>
    </message>
    <message>
        <source> an hour</source>
        <translation> pro Stunde</translation>
    </message>
    <message>
        <source>No cap</source>
        <translation>Keine Obergrenze</translation>
    </message>
    <message>
        <source>Send a test SMS</source>
        <translation>Test-SMS senden</translation>
    </message>
    <message>
        <source>Sends one message with the values above (saved or not) to the number you type.</source>
        <translation>Sendet eine Nachricht mit den obigen Werten (gespeichert oder nicht) an die eingegebene Nummer.</translation>
    </message>
    <message>
        <source>To</source>
        <translation>An</translation>
    </message>
    <message>
        <source>The token typed above is stored when you save.</source>
        <translation>Das oben eingegebene Token wird beim Speichern gespeichert.</translation>
    </message>
    <message>
        <source>No token is stored.</source>
        <translation>Kein Token gespeichert.</translation>
    </message>
    <message>
        <source>A token is stored; type another to replace it.</source>
        <translation>Ein Token ist gespeichert; geben Sie ein anderes ein, um es zu ersetzen.</translation>
    </message>
    <message>
        <source>correct the fields marked above.</source>
        <translation>Korrigieren Sie die oben markierten Felder.</translation>
    </message>
    <message>
        <source>Not sent: correct the fields marked above.</source>
        <translation>Nicht gesendet: Korrigieren Sie die oben markierten Felder.</translation>
    </message>
    <message>
        <source>Not sent: fill in the account SID, the auth token and the sender first.</source>
        <translation>Nicht gesendet: Füllen Sie zuerst Konto-SID, Auth-Token und Absender aus.</translation>
    </message>
    <message>
        <source>Type the number in international form, such as +905321234567.</source>
        <translation>Geben Sie die Nummer in internationaler Form ein, etwa +4915112345678.</translation>
    </message>
    <message>
        <source>Testing is not available here.</source>
        <translation>Testen ist hier nicht verfügbar.</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Wird gesendet…</translation>
    </message>
    <message>
        <source>Liaison test message: SMS campaigns can be sent from this account.</source>
        <translation>Liaison-Testnachricht: Von diesem Konto können SMS-Kampagnen gesendet werden.</translation>
    </message>
    <message>
        <source>Not sent: no answer from the provider (%1).</source>
        <translation>Nicht gesendet: keine Antwort vom Anbieter (%1).</translation>
    </message>
    <message>
        <source>no connection</source>
        <translation>keine Verbindung</translation>
    </message>
    <message>
        <source>Sent to %1. The provider accepted it as %2 (status: %3).</source>
        <translation>Gesendet an %1. Der Anbieter hat sie als %2 angenommen (Status: %3).</translation>
    </message>
    <message>
        <source>a message without a sid</source>
        <translation>eine Nachricht ohne SID</translation>
    </message>
    <message>
        <source>Not sent: the provider answered %1 with error %2: %3</source>
        <translation>Nicht gesendet: Der Anbieter antwortete %1 mit Fehler %2: %3</translation>
    </message>
    <message>
        <source>Not sent: the provider answered %1: %2</source>
        <translation>Nicht gesendet: Der Anbieter antwortete %1: %2</translation>
    </message>
    <message>
        <source>SMS</source>
        <translation>SMS</translation>
    </message>
    <message>
        <source>&amp;SMS…</source>
        <translation>&amp;SMS…</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>Liaison cannot start</source>
        <translation>Liaison kann nicht starten</translation>
    </message>
    <message>
        <source>Liaison could not open its database.</source>
        <translation>Liaison konnte seine Datenbank nicht öffnen.</translation>
    </message>
    <message>
        <source>%1

Check database/url in the settings file (liaison.ini in the data directory), that the server runs and accepts this computer, and the password in the secret store (secrets/database.password).</source>
        <translation>%1

Prüfen Sie database/url in der Einstellungsdatei (liaison.ini im Datenverzeichnis), ob der Server läuft und diesen Computer zulässt, und das Passwort im Geheimnisspeicher (secrets/database.password).</translation>
    </message>
    <message>
        <source>You signed out.</source>
        <translation>Sie haben sich abgemeldet.</translation>
    </message>
    <message>
        <source>The account %1 was deactivated; sign in with another.</source>
        <translation>Das Konto %1 wurde deaktiviert; melden Sie sich mit einem anderen an.</translation>
    </message>
    <message>
        <source>Your session was ended (a new password, or a sign-out elsewhere); sign in again.</source>
        <translation>Ihre Sitzung wurde beendet (ein neues Passwort oder eine Abmeldung an anderer Stelle); melden Sie sich erneut an.</translation>
    </message>
    <message>
        <source>Liaison is already open</source>
        <translation>Liaison ist bereits geöffnet</translation>
    </message>
    <message>
        <source>Liaison is already open with this data directory (%1). Use the window that is open.</source>
        <translation>Liaison ist mit diesem Datenverzeichnis (%1) bereits geöffnet. Verwenden Sie das geöffnete Fenster.</translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation>Datenbank: %1</translation>
    </message>
    <message>
        <source>Data folder: %1</source>
        <translation>Datenordner: %1</translation>
    </message>
    <message>
        <source>The database file is damaged.</source>
        <translation>Die Datenbankdatei ist beschädigt.</translation>
    </message>
    <message>
        <source>The database file is empty.</source>
        <translation>Die Datenbankdatei ist leer.</translation>
    </message>
    <message>
        <source>The database file %1 holds 0 bytes. Liaison does not take it for a new database: your contacts, users and keys would be gone without a word.

Restore the file from a backup copy. If this data folder is new and its first start failed, delete the empty file and start Liaison again.</source>
        <translation>Die Datenbankdatei %1 enthält 0 Bytes. Liaison hält sie nicht für eine neue Datenbank: Ihre Kontakte, Benutzer und Schlüssel wären kommentarlos verschwunden.

Stellen Sie die Datei aus einer Sicherungskopie wieder her. Ist dieser Datenordner neu und ist sein erster Start fehlgeschlagen, löschen Sie die leere Datei und starten Sie Liaison erneut.</translation>
    </message>
    <message>
        <source>The data folder is read-only.</source>
        <translation>Der Datenordner ist schreibgeschützt.</translation>
    </message>
    <message>
        <source>%1 is read-only, and Liaison needs to write its database there.

Make it writable for your user, or start Liaison with another data folder (--data-dir).

Details: %2</source>
        <translation>%1 ist schreibgeschützt, und Liaison muss seine Datenbank dort schreiben.

Machen Sie ihn für Ihren Benutzer beschreibbar oder starten Sie Liaison mit einem anderen Datenordner (--data-dir).

Details: %2</translation>
    </message>
    <message>
        <source>Liaison does not open a damaged database file:
%1

To restore it, close Liaison and run &quot;liaison restore --force FILE&quot; with a backup (the daily ones are in the data folder&apos;s &quot;backups&quot; folder; the damaged file is kept aside), or put a backup copy of the file in its place (and delete the files ending in -wal and -shm beside it), or save what can still be read with the sqlite3 program&apos;s .recover command. &quot;liaison db check&quot; reports what is damaged.

Details: %2</source>
        <translation>Liaison öffnet keine beschädigte Datenbankdatei:
%1

Um sie wiederherzustellen, schließen Sie Liaison und führen Sie &quot;liaison restore --force DATEI&quot; mit einer Sicherung aus (die täglichen liegen im Ordner &quot;backups&quot; des Datenordners; die beschädigte Datei wird beiseitegelegt und aufbewahrt), oder legen Sie eine Sicherungskopie der Datei an ihre Stelle (und löschen Sie die Dateien daneben, die auf -wal und -shm enden), oder retten Sie, was sich noch lesen lässt, mit dem Befehl .recover des Programms sqlite3. &quot;liaison db check&quot; meldet, was beschädigt ist.

Details: %2</translation>
    </message>
</context>
<context>
    <name>TaskDialog</name>
    <message>
        <source>New task</source>
        <translation>Neue Aufgabe</translation>
    </message>
    <message>
        <source>Edit task</source>
        <translation>Aufgabe bearbeiten</translation>
    </message>
    <message>
        <source>What needs doing?</source>
        <translation>Was ist zu tun?</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>Titel:</translation>
    </message>
    <message>
        <source>Description:</source>
        <translation>Beschreibung:</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Anruf</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Termin</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>Nachfassen</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Niedrig</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation>Dringend</translation>
    </message>
    <message>
        <source>To do</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>Typ:</translation>
    </message>
    <message>
        <source>Priority:</source>
        <translation>Priorität:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>Fällig</translation>
    </message>
    <message>
        <source>at</source>
        <translation>um</translation>
    </message>
    <message>
        <source>Due date:</source>
        <translation>Fälligkeitsdatum:</translation>
    </message>
    <message>
        <source>Contact:</source>
        <translation>Kontakt:</translation>
    </message>
    <message>
        <source>Remind me</source>
        <translation>Erinnern</translation>
    </message>
    <message>
        <source> minutes before</source>
        <translation> Minuten vorher</translation>
    </message>
    <message>
        <source>Reminder:</source>
        <translation>Erinnerung:</translation>
    </message>
    <message>
        <source>Does not repeat</source>
        <translation>Keine Wiederholung</translation>
    </message>
    <message>
        <source>Daily</source>
        <translation>Täglich</translation>
    </message>
    <message>
        <source>Weekly</source>
        <translation>Wöchentlich</translation>
    </message>
    <message>
        <source>Monthly</source>
        <translation>Monatlich</translation>
    </message>
    <message>
        <source>Yearly</source>
        <translation>Jährlich</translation>
    </message>
    <message>
        <source>every </source>
        <translation>alle </translation>
    </message>
    <message>
        <source>Mon</source>
        <translation>Mo</translation>
    </message>
    <message>
        <source>Tue</source>
        <translation>Di</translation>
    </message>
    <message>
        <source>Wed</source>
        <translation>Mi</translation>
    </message>
    <message>
        <source>Thu</source>
        <translation>Do</translation>
    </message>
    <message>
        <source>Fri</source>
        <translation>Fr</translation>
    </message>
    <message>
        <source>Sat</source>
        <translation>Sa</translation>
    </message>
    <message>
        <source>Sun</source>
        <translation>So</translation>
    </message>
    <message>
        <source>until</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>Repeat:</source>
        <translation>Wiederholen:</translation>
    </message>
    <message>
        <source>Deal:</source>
        <translation>Deal:</translation>
    </message>
    <message>
        <source>(unassigned)</source>
        <translation>(nicht zugewiesen)</translation>
    </message>
    <message>
        <source>Assigned to:</source>
        <translation>Zugewiesen an:</translation>
    </message>
    <message>
        <source>Title</source>
        <comment>the title field, as a screen reader names it</comment>
        <translation>Titel</translation>
    </message>
</context>
<context>
    <name>TaskReminderNotifier</name>
    <message>
        <source>%1 — due %2</source>
        <translation>%1 — fällig %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <source>To do</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Niedrig</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation>Dringend</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Anruf</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Termin</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>Nachfassen</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Repeats %1</source>
        <translation>Wiederholt sich %1</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>Fällig</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kontakt</translation>
    </message>
    <message>
        <source>Deal</source>
        <translation>Deal</translation>
    </message>
    <message>
        <source>Assignee</source>
        <translation>Zuständig</translation>
    </message>
</context>
<context>
    <name>TasksView</name>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Add a task and press Enter…</source>
        <translation>Aufgabe eingeben und Eingabe drücken…</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Tomorrow</source>
        <translation>Morgen</translation>
    </message>
    <message>
        <source>No date</source>
        <translation>Ohne Datum</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Neu…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Overdue</source>
        <translation>Überfällig</translation>
    </message>
    <message>
        <source>Upcoming</source>
        <translation>Demnächst</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Alle</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Added “%1”.</source>
        <translation>„%1“ hinzugefügt.</translation>
    </message>
    <message>
        <source>Task done.</source>
        <translation>Aufgabe erledigt.</translation>
    </message>
    <message>
        <source>Task done. Next occurrence: %1.</source>
        <translation>Aufgabe erledigt. Nächster Termin: %1.</translation>
    </message>
    <message>
        <source>Delete task</source>
        <translation>Aufgabe löschen</translation>
    </message>
    <message>
        <source>Delete the task “%1” and its notes?</source>
        <translation>Die Aufgabe „%1“ und ihre Notizen löschen?</translation>
    </message>
    <message>
        <source>Task deleted.</source>
        <translation>Aufgabe gelöscht.</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>Wieder öffnen</translation>
    </message>
    <message>
        <source>Move a done or cancelled task back to To do</source>
        <translation>Eine erledigte oder abgebrochene Aufgabe zurück auf „Offen“ setzen</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>To do</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Any priority</source>
        <translation>Jede Priorität</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Niedrig</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation>Dringend</translation>
    </message>
    <message>
        <source>Any type</source>
        <translation>Jeder Typ</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Anruf</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Termin</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>Nachfassen</translation>
    </message>
    <message>
        <source>Anyone</source>
        <translation>Alle Personen</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Reopened “%1”.</source>
        <translation>„%1“ wieder geöffnet.</translation>
    </message>
    <message>
        <source>Task reminder</source>
        <translation>Aufgabenerinnerung</translation>
    </message>
    <message>
        <source>Nothing due today. Type a task in the line above and press Enter.</source>
        <translation>Heute ist nichts fällig. Geben Sie oben eine Aufgabe ein und drücken Sie Eingabe.</translation>
    </message>
    <message>
        <source>Nothing coming up. Tasks with a later due date show here.</source>
        <translation>Nichts steht an. Aufgaben mit späterem Fälligkeitsdatum erscheinen hier.</translation>
    </message>
    <message>
        <source>“%1” done.</source>
        <translation>„%1“ erledigt.</translation>
    </message>
    <message>
        <source>Undone.</source>
        <translation>Rückgängig gemacht.</translation>
    </message>
    <message>
        <source>Task “%1” deleted.</source>
        <translation>Aufgabe „%1“ gelöscht.</translation>
    </message>
    <message>
        <source>Assigned to me</source>
        <translation>Mir zugewiesen</translation>
    </message>
    <message>
        <source>The filters above (%1) may hide others.</source>
        <translation>Die Filter oben (%1) blenden womöglich andere aus.</translation>
    </message>
    <message>
        <source>Quick add a task</source>
        <translation>Aufgabe schnell hinzufügen</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>10 min</source>
        <translation>10 Min.</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 Stunde</translation>
    </message>
    <message>
        <source>Tomorrow 9:00</source>
        <translation>Morgen 9:00</translation>
    </message>
    <message>
        <source>Reminded again at %1.</source>
        <translation>Erneut erinnert um %1.</translation>
    </message>
    <message>
        <source>Search tasks…</source>
        <translation>Aufgaben suchen…</translation>
    </message>
    <message>
        <source>Search tasks</source>
        <translation>Aufgaben suchen</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>Meine</translation>
    </message>
    <message>
        <source>Only the tasks assigned to you</source>
        <translation>Nur die Ihnen zugewiesenen Aufgaben</translation>
    </message>
    <message>
        <source>No task here matches “%1”: change or clear the search.</source>
        <translation>Keine Aufgabe hier entspricht „%1“: Ändern oder leeren Sie die Suche.</translation>
    </message>
    <message>
        <source>No overdue tasks: everything due is done.</source>
        <translation>Keine überfälligen Aufgaben: Alles Fällige ist erledigt.</translation>
    </message>
    <message>
        <source>No tasks yet. Type one in the line above and press Enter, or add one with its due date, reminder and contact.</source>
        <translation>Noch keine Aufgaben. Geben Sie oben eine ein und drücken Sie Eingabe, oder fügen Sie eine mit Fälligkeitsdatum, Erinnerung und Kontakt hinzu.</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Suche leeren</translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation>Filter zurücksetzen</translation>
    </message>
    <message>
        <source>Show all tasks</source>
        <translation>Alle Aufgaben anzeigen</translation>
    </message>
    <message>
        <source>New task…</source>
        <translation>Neue Aufgabe…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <source>Save the tasks this tab and the filters show as a CSV file</source>
        <translation>Die Aufgaben, die dieser Reiter und die Filter anzeigen, als CSV-Datei speichern</translation>
    </message>
    <message>
        <source>Export tasks to CSV</source>
        <translation>Aufgaben als CSV exportieren</translation>
    </message>
    <message>
        <source>tasks.csv</source>
        <translation>aufgaben.csv</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 wurde nicht gespeichert: %2</translation>
    </message>
    <message>
        <source>%1 tasks saved to %2.</source>
        <translation>%1 Aufgaben in %2 gespeichert.</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>Import…</translation>
    </message>
    <message>
        <source>Import tasks from a CSV file</source>
        <translation>Aufgaben aus einer CSV-Datei importieren</translation>
    </message>
    <message>
        <source>Import tasks</source>
        <translation>Aufgaben importieren</translation>
    </message>
    <message>
        <source>A task with the same title, due date and contact exists:</source>
        <translation>Wenn eine Aufgabe mit demselben Titel, Fälligkeitsdatum und Kontakt existiert:</translation>
    </message>
    <message>
        <source>Contact&apos;s e-mail</source>
        <translation>E-Mail des Kontakts</translation>
    </message>
</context>
<context>
    <name>TemplateDialog</name>
    <message>
        <source>Add template</source>
        <translation>Vorlage hinzufügen</translation>
    </message>
    <message>
        <source>Edit template</source>
        <translation>Vorlage bearbeiten</translation>
    </message>
    <message>
        <source>e.g. order_update</source>
        <translation>z. B. order_update</translation>
    </message>
    <message>
        <source>e.g. tr or en_US</source>
        <translation>z. B. de oder en_US</translation>
    </message>
    <message>
        <source>Hello {{1}}, your order {{2}} is on its way.</source>
        <translation>Hallo {{1}}, Ihre Bestellung {{2}} ist unterwegs.</translation>
    </message>
    <message>
        <source>Quick reply buttons, one a line (optional)</source>
        <translation>Schnellantwort-Schaltflächen, eine pro Zeile (optional)</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>Category:</source>
        <translation>Kategorie:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>Text:</translation>
    </message>
    <message>
        <source>Buttons:</source>
        <translation>Schaltflächen:</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
</context>
<context>
    <name>TemplatesPage</name>
    <message>
        <source>Templates</source>
        <translation>Vorlagen</translation>
    </message>
    <message>
        <source>&amp;Templates…</source>
        <translation>&amp;Vorlagen…</translation>
    </message>
    <message>
        <source>Marketing</source>
        <translation>Marketing</translation>
    </message>
    <message>
        <source>Utility</source>
        <translation>Service</translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation>Authentifizierung</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Genehmigt</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Message templates for WhatsApp: an approved one is needed to write first, or after 24 hours without an answer. {{1}}, {{2}}… in the text are filled in when it is sent. Add them here as they were approved in Meta&apos;s WhatsApp Manager.</source>
        <translation>Nachrichtenvorlagen für WhatsApp: Eine genehmigte wird gebraucht, um als Erster zu schreiben oder nach 24 Stunden ohne Antwort. {{1}}, {{2}}… im Text werden beim Senden ausgefüllt. Fügen Sie sie hier so hinzu, wie sie im WhatsApp Manager von Meta genehmigt wurden.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Could not read the templates: %1</source>
        <translation>Die Vorlagen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Delete template</source>
        <translation>Vorlage löschen</translation>
    </message>
    <message>
        <source>Delete the template &quot;%1&quot;? The composer stops offering it.</source>
        <translation>Die Vorlage „%1“ löschen? Das Eingabefeld bietet sie dann nicht mehr an.</translation>
    </message>
    <message>
        <source>No templates yet. Add the ones Meta approved, with Add…, to send them from the Inbox.</source>
        <translation>Noch keine Vorlagen. Fügen Sie die von Meta genehmigten mit „Hinzufügen…“ hinzu, um sie aus dem Posteingang zu senden.</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Undo (Ctrl+Z)</source>
        <translation>Rückgängig (Strg+Z)</translation>
    </message>
</context>
<context>
    <name>UnsubscribeList</name>
    <message>
        <source>No campaign sends to these addresses on their channel: people who unsubscribed, addresses that bounced for good, and those added by hand.</source>
        <translation>Keine Kampagne sendet an diese Adressen auf ihrem Kanal: Personen, die sich abgemeldet haben, dauerhaft unzustellbare Adressen und von Hand hinzugefügte.</translation>
    </message>
    <message>
        <source>Search addresses…</source>
        <translation>Adressen suchen…</translation>
    </message>
    <message>
        <source>Search addresses</source>
        <translation>Adressen suchen</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>Every channel</source>
        <translation>Jeder Kanal</translation>
    </message>
    <message>
        <source>Add address…</source>
        <translation>Adresse hinzufügen…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Hinzugefügt</translation>
    </message>
    <message>
        <source>Unsubscribe list</source>
        <translation>Abmeldeliste</translation>
    </message>
    <message>
        <source>Nobody has unsubscribed yet.</source>
        <translation>Noch hat sich niemand abgemeldet.</translation>
    </message>
    <message>
        <source>Let campaigns send to this address again</source>
        <translation>Kampagnen wieder an diese Adresse senden lassen</translation>
    </message>
    <message>
        <source>Only an administrator removes addresses from the list</source>
        <translation>Nur ein Administrator entfernt Adressen aus der Liste</translation>
    </message>
    <message>
        <source>%1 is on the list: no campaign sends to it by %2.</source>
        <translation>%1 steht auf der Liste: Keine Kampagne sendet per %2 dorthin.</translation>
    </message>
    <message>
        <source>Add to the unsubscribe list</source>
        <translation>Zur Abmeldeliste hinzufügen</translation>
    </message>
    <message>
        <source>an e-mail address or a phone number</source>
        <translation>eine E-Mail-Adresse oder Telefonnummer</translation>
    </message>
    <message>
        <source>&amp;Channel</source>
        <translation>&amp;Kanal</translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation>&amp;Adresse</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Remove from the unsubscribe list</source>
        <translation>Von der Abmeldeliste entfernen</translation>
    </message>
    <message>
        <source>Let campaigns send to %1 again? Remove it only when the person asked for it.</source>
        <translation>Kampagnen wieder an %1 senden lassen? Entfernen Sie die Adresse nur, wenn die Person darum gebeten hat.</translation>
    </message>
    <message>
        <source>%1 was removed from the list.</source>
        <translation>%1 wurde von der Liste entfernt.</translation>
    </message>
</context>
<context>
    <name>UserDialog</name>
    <message>
        <source>Add user</source>
        <translation>Benutzer hinzufügen</translation>
    </message>
    <message>
        <source>Edit user</source>
        <translation>Benutzer bearbeiten</translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation>name@firma.de</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-Mail:</translation>
    </message>
    <message>
        <source>Role:</source>
        <translation>Rolle:</translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>mindestens %n Zeichen</numerusform>
            <numerusform>mindestens %n Zeichen</numerusform>
        </translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Passwort:</translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation>Wiederholen:</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
</context>
<context>
    <name>UsersPage</name>
    <message>
        <source>Users</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>&amp;Users…</source>
        <translation>&amp;Benutzer…</translation>
    </message>
    <message numerus="yes">
        <source>The password must have at least %n characters.</source>
        <translation>
            <numerusform>Das Passwort muss mindestens %n Zeichen haben.</numerusform>
            <numerusform>Das Passwort muss mindestens %n Zeichen haben.</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passwords differ.</source>
        <translation>Die beiden Passwörter stimmen nicht überein.</translation>
    </message>
    <message>
        <source>Admin</source>
        <translation>Admin</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Mitarbeiter</translation>
    </message>
    <message>
        <source>Agent: works with the CRM data</source>
        <translation>Mitarbeiter: arbeitet mit den CRM-Daten</translation>
    </message>
    <message>
        <source>Admin: also users, keys, webhooks, channels</source>
        <translation>Admin: auch Benutzer, Schlüssel, Webhooks, Kanäle</translation>
    </message>
    <message>
        <source>Everyone who signs in to Liaison, in the window or through the API. Agents work with contacts, deals, tasks and the inbox; admins also manage users, API keys, webhooks, channels and the other settings.</source>
        <translation>Alle, die sich bei Liaison anmelden, im Fenster oder über die API. Mitarbeiter arbeiten mit Kontakten, Deals, Aufgaben und dem Posteingang; Admins verwalten zusätzlich Benutzer, API-Schlüssel, Webhooks, Kanäle und die übrigen Einstellungen.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Hinzugefügt</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Set password…</source>
        <translation>Passwort festlegen…</translation>
    </message>
    <message>
        <source>Deactivate</source>
        <translation>Deaktivieren</translation>
    </message>
    <message>
        <source>Could not read the users: %1</source>
        <translation>Die Benutzer konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Deactivated</source>
        <translation>Deaktiviert</translation>
    </message>
    <message>
        <source>Activate</source>
        <translation>Aktivieren</translation>
    </message>
    <message>
        <source>Deactivate user</source>
        <translation>Benutzer deaktivieren</translation>
    </message>
    <message>
        <source>Deactivate %1? They are signed out at once, in the window and the API, and their API keys stop working. Their records stay.</source>
        <translation>%1 deaktivieren? Die Person wird sofort abgemeldet, im Fenster und in der API, und ihre API-Schlüssel funktionieren nicht mehr. Ihre Datensätze bleiben erhalten.</translation>
    </message>
</context>
<context>
    <name>WebhookDialog</name>
    <message>
        <source>Edit webhook</source>
        <translation>Webhook bearbeiten</translation>
    </message>
    <message>
        <source>Add webhook</source>
        <translation>Webhook hinzufügen</translation>
    </message>
    <message>
        <source>All events, including ones added later</source>
        <translation>Alle Ereignisse, auch später hinzugefügte</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>Erzeugen</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Unchanged (%1)</source>
        <translation>Unverändert (%1)</translation>
    </message>
    <message>
        <source>Rotate: generate a new secret</source>
        <translation>Erneuern: ein neues Geheimnis erzeugen</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>Geheimnis</translation>
    </message>
    <message>
        <source>Leave empty to generate one (at least 16 characters)</source>
        <translation>Leer lassen, um eines zu erzeugen (mindestens 16 Zeichen)</translation>
    </message>
    <message>
        <source>Choose at least one event.</source>
        <translation>Wählen Sie mindestens ein Ereignis.</translation>
    </message>
</context>
<context>
    <name>WebhookEvent</name>
    <message>
        <source>A customer&apos;s message arrives</source>
        <translation>Eine Kundennachricht kommt an</translation>
    </message>
    <message>
        <source>A reply leaves for the customer</source>
        <translation>Eine Antwort geht an den Kunden</translation>
    </message>
    <message>
        <source>A reply reaches the customer</source>
        <translation>Eine Antwort erreicht den Kunden</translation>
    </message>
    <message>
        <source>The customer reads a reply</source>
        <translation>Der Kunde liest eine Antwort</translation>
    </message>
    <message>
        <source>A reply cannot be delivered</source>
        <translation>Eine Antwort kann nicht zugestellt werden</translation>
    </message>
    <message>
        <source>A conversation starts</source>
        <translation>Eine Unterhaltung beginnt</translation>
    </message>
    <message>
        <source>A conversation changes</source>
        <translation>Eine Unterhaltung ändert sich</translation>
    </message>
    <message>
        <source>A conversation is assigned</source>
        <translation>Eine Unterhaltung wird zugewiesen</translation>
    </message>
    <message>
        <source>A conversation is closed</source>
        <translation>Eine Unterhaltung wird geschlossen</translation>
    </message>
    <message>
        <source>A contact is added</source>
        <translation>Ein Kontakt wird hinzugefügt</translation>
    </message>
    <message>
        <source>A contact changes</source>
        <translation>Ein Kontakt ändert sich</translation>
    </message>
    <message>
        <source>A contact is deleted</source>
        <translation>Ein Kontakt wird gelöscht</translation>
    </message>
    <message>
        <source>A deal is added</source>
        <translation>Ein Deal wird hinzugefügt</translation>
    </message>
    <message>
        <source>A deal changes</source>
        <translation>Ein Deal ändert sich</translation>
    </message>
    <message>
        <source>A deal moves to another stage</source>
        <translation>Ein Deal wechselt in eine andere Phase</translation>
    </message>
    <message>
        <source>A deal is won</source>
        <translation>Ein Deal wird gewonnen</translation>
    </message>
    <message>
        <source>A deal is lost</source>
        <translation>Ein Deal geht verloren</translation>
    </message>
    <message>
        <source>A deal is deleted</source>
        <translation>Ein Deal wird gelöscht</translation>
    </message>
    <message>
        <source>A task is added</source>
        <translation>Eine Aufgabe wird hinzugefügt</translation>
    </message>
    <message>
        <source>A task changes</source>
        <translation>Eine Aufgabe ändert sich</translation>
    </message>
    <message>
        <source>A task is done</source>
        <translation>Eine Aufgabe wird erledigt</translation>
    </message>
    <message>
        <source>A task becomes overdue</source>
        <translation>Eine Aufgabe wird überfällig</translation>
    </message>
    <message>
        <source>A task&apos;s reminder is due</source>
        <translation>Die Erinnerung einer Aufgabe ist fällig</translation>
    </message>
    <message>
        <source>A segment is added</source>
        <translation>Ein Segment wird hinzugefügt</translation>
    </message>
    <message>
        <source>A segment changes</source>
        <translation>Ein Segment ändert sich</translation>
    </message>
    <message>
        <source>A segment is deleted</source>
        <translation>Ein Segment wird gelöscht</translation>
    </message>
    <message>
        <source>Contacts join a segment</source>
        <translation>Kontakte treten einem Segment bei</translation>
    </message>
    <message>
        <source>Contacts leave a segment</source>
        <translation>Kontakte verlassen ein Segment</translation>
    </message>
    <message>
        <source>processed</source>
        <translation>verarbeitet</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>abgewiesen</translation>
    </message>
    <message>
        <source>A campaign starts sending</source>
        <translation>Eine Kampagne beginnt zu senden</translation>
    </message>
    <message>
        <source>A campaign has been sent</source>
        <translation>Eine Kampagne wurde gesendet</translation>
    </message>
    <message>
        <source>A campaign could deliver nothing</source>
        <translation>Eine Kampagne konnte nichts zustellen</translation>
    </message>
    <message>
        <source>Contacts are imported from a CSV file (one event a batch of 500 rows)</source>
        <translation>Kontakte werden aus einer CSV-Datei importiert (ein Ereignis je Stapel von 500 Zeilen)</translation>
    </message>
</context>
<context>
    <name>WebhooksPage</name>
    <message>
        <source>Liaison POSTs each event to the subscribed URLs, signed with the subscription&apos;s secret (X-Service-Signature). Failed deliveries are retried; a subscription whose retries all fail is disabled.</source>
        <translation>Liaison sendet jedes Ereignis per POST an die abonnierten URLs, signiert mit dem Geheimnis des Abonnements (X-Service-Signature). Fehlgeschlagene Zustellungen werden wiederholt; ein Abonnement, dessen Wiederholungen alle fehlschlagen, wird deaktiviert.</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>Fehlschläge</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Disable</source>
        <translation>Deaktivieren</translation>
    </message>
    <message>
        <source>Send test</source>
        <translation>Test senden</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>Next retry</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>Redeliver</source>
        <translation>Erneut zustellen</translation>
    </message>
    <message>
        <source>Delivery log</source>
        <translation>Zustellprotokoll</translation>
    </message>
    <message>
        <source>All events</source>
        <translation>Alle Ereignisse</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Deaktiviert: %1</translation>
    </message>
    <message>
        <source>sending…</source>
        <translation>wird gesendet…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Enable</source>
        <translation>Aktivieren</translation>
    </message>
    <message>
        <source>Signing secret</source>
        <translation>Signaturgeheimnis</translation>
    </message>
    <message>
        <source>Delete webhook</source>
        <translation>Webhook löschen</translation>
    </message>
    <message>
        <source>Delete the webhook to %1 and its delivery log? Pending deliveries are dropped.</source>
        <translation>Den Webhook an %1 und sein Zustellprotokoll löschen? Ausstehende Zustellungen werden verworfen.</translation>
    </message>
    <message>
        <source>No subscriptions yet. Add one with Add… to have Liaison POST its events to your URL.</source>
        <translation>Noch keine Abonnements. Fügen Sie eines mit „Hinzufügen…“ hinzu, damit Liaison seine Ereignisse per POST an Ihre URL sendet.</translation>
    </message>
</context>
<context>
    <name>WelcomeDialog</name>
    <message>
        <source>Welcome to Liaison</source>
        <translation>Willkommen bei Liaison</translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation>name@firma.de</translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>mindestens %n Zeichen</numerusform>
            <numerusform>mindestens %n Zeichen</numerusform>
        </translation>
    </message>
    <message>
        <source>Your name:</source>
        <translation>Ihr Name:</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-Mail:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Passwort:</translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation>Wiederholen:</translation>
    </message>
    <message>
        <source>Create account</source>
        <translation>Konto erstellen</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>Work without an account for now; this welcome comes back at the next start</source>
        <translation>Vorerst ohne Konto arbeiten; dieser Willkommensdialog erscheint beim nächsten Start wieder</translation>
    </message>
    <message>
        <source>Create the administrator account. It manages users, API keys, webhooks and channels, and it is the account you sign in with.</source>
        <translation>Erstellen Sie das Administratorkonto. Es verwaltet Benutzer, API-Schlüssel, Webhooks und Kanäle, und mit ihm melden Sie sich an.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Create an API key</source>
        <translation>API-Schlüssel erstellen</translation>
    </message>
    <message>
        <source>No key yet</source>
        <translation>Noch kein Schlüssel</translation>
    </message>
    <message>
        <source>Start working</source>
        <translation>Loslegen</translation>
    </message>
    <message>
        <source>Your local API</source>
        <translation>Ihre lokale API</translation>
    </message>
    <message>
        <source>Tools on this computer (scripts, automations, other apps) reach the same contacts, deals, tasks and messages through the REST API at:</source>
        <translation>Programme auf diesem Computer (Skripte, Automatisierungen, andere Apps) erreichen dieselben Kontakte, Deals, Aufgaben und Nachrichten über die REST-API unter:</translation>
    </message>
    <message>
        <source>A tool needs an API key. It is shown only once: copy it now and keep it somewhere safe. Settings → API keys lists and revokes keys.</source>
        <translation>Ein Programm braucht einen API-Schlüssel. Er wird nur einmal angezeigt: Kopieren Sie ihn jetzt und bewahren Sie ihn sicher auf. Einstellungen → API-Schlüssel listet und widerruft Schlüssel.</translation>
    </message>
    <message>
        <source>The API server is not running.</source>
        <translation>Der API-Server läuft nicht.</translation>
    </message>
    <message>
        <source>The API server is not running: %1</source>
        <translation>Der API-Server läuft nicht: %1</translation>
    </message>
    <message>
        <source>Try it:</source>
        <translation>Probieren Sie es aus:</translation>
    </message>
    <message>
        <source>Enter your name.</source>
        <translation>Geben Sie Ihren Namen ein.</translation>
    </message>
    <message>
        <source>Enter an e-mail address such as name@company.com.</source>
        <translation>Geben Sie eine E-Mail-Adresse ein, etwa name@firma.de.</translation>
    </message>
    <message numerus="yes">
        <source>The password needs at least %n characters.</source>
        <translation>
            <numerusform>Das Passwort braucht mindestens %n Zeichen.</numerusform>
            <numerusform>Das Passwort braucht mindestens %n Zeichen.</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passwords differ.</source>
        <translation>Die beiden Passwörter stimmen nicht überein.</translation>
    </message>
    <message>
        <source>Please check the marked fields.</source>
        <translation>Bitte prüfen Sie die markierten Felder.</translation>
    </message>
    <message>
        <source>An account with this e-mail address exists already.</source>
        <translation>Ein Konto mit dieser E-Mail-Adresse existiert bereits.</translation>
    </message>
    <message>
        <source>The account could not be saved: %1</source>
        <translation>Das Konto konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>First key</source>
        <translation>Erster Schlüssel</translation>
    </message>
    <message>
        <source>The key could not be made: %1</source>
        <translation>Der Schlüssel konnte nicht erstellt werden: %1</translation>
    </message>
    <message>
        <source>A short tour</source>
        <translation>Ein kurzer Rundgang</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>Erste Schritte</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kontakte</translation>
    </message>
    <message>
        <source>Type in the search box to find anyone by name, e-mail, company or phone, with or without the country code. Choose a contact to see their deals, conversations, tasks, notes and history on the right. Segments on the left keep lists that follow their rules, such as every VIP in İzmir.</source>
        <translation>Tippen Sie ins Suchfeld, um jeden nach Name, E-Mail, Firma oder Telefon zu finden, mit oder ohne Ländervorwahl. Wählen Sie einen Kontakt, um rechts seine Deals, Unterhaltungen, Aufgaben, Notizen und seinen Verlauf zu sehen. Segmente links führen Listen, die ihren Regeln folgen, etwa alle VIPs in München.</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Deals</translation>
    </message>
    <message>
        <source>Each column of the board is a stage. Drag a card to the next stage as the deal moves on; dropping it on Won or Lost asks for the closing value or the reason. The chart above the board adds up the value per stage in one currency at a time.</source>
        <translation>Jede Spalte des Boards ist eine Phase. Ziehen Sie eine Karte in die nächste Phase, wenn der Deal vorankommt; beim Ablegen auf Gewonnen oder Verloren werden der Abschlusswert oder der Grund abgefragt. Das Diagramm über dem Board summiert den Wert je Phase, jeweils in einer Währung.</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Write a task in the line at the top, choose Today, Tomorrow or No date, and press Enter. Today, Overdue, Upcoming and All sort what is due. A reminder shows in the window&apos;s corner at its time, and the notices button at the foot of the window lists what you missed.</source>
        <translation>Schreiben Sie eine Aufgabe in die Zeile oben, wählen Sie Heute, Morgen oder Ohne Datum und drücken Sie Eingabe. Heute, Überfällig, Demnächst und Alle ordnen, was fällig ist. Eine Erinnerung erscheint zu ihrer Zeit in der Fensterecke, und die Schaltfläche für Hinweise am unteren Fensterrand listet auf, was Sie verpasst haben.</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>Posteingang</translation>
    </message>
    <message>
        <source>WhatsApp, Telegram, Instagram and web chat conversations in one list, newest first. Open one to answer; Ctrl+1 to Ctrl+9 insert your quick replies, and a conversation you read is marked read.</source>
        <translation>Unterhaltungen aus WhatsApp, Telegram, Instagram und Web-Chat in einer Liste, die neuesten zuerst. Öffnen Sie eine, um zu antworten; Strg+1 bis Strg+9 fügen Ihre Schnellantworten ein, und eine gelesene Unterhaltung wird als gelesen markiert.</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Deleting a contact or a task, or completing a task, can be taken back for a few seconds with Undo at the foot of the window (Ctrl+Z).</source>
        <translation>Das Löschen eines Kontakts oder einer Aufgabe oder das Erledigen einer Aufgabe lässt sich einige Sekunden lang mit „Rückgängig“ am unteren Fensterrand zurücknehmen (Strg+Z).</translation>
    </message>
    <message>
        <source>Your local API…</source>
        <translation>Ihre lokale API…</translation>
    </message>
    <message>
        <source>Settings → Contacts changes it later.</source>
        <translation>Unter Einstellungen → Kontakte können Sie das später ändern.</translation>
    </message>
    <message>
        <source>Phone numbers written without + are from %1 (+%2)</source>
        <translation>Telefonnummern ohne + stammen aus %1 (+%2)</translation>
    </message>
</context>
<context>
    <name>WidgetSettingsPage</name>
    <message>
        <source>Put a chat button on your web site: paste this line into its pages, just before &lt;/body&gt;. Visitors&apos; messages arrive in the Inbox on the Web widget channel, and your answers appear in their chat at once.</source>
        <translation>Setzen Sie einen Chat-Button auf Ihre Website: Fügen Sie diese Zeile in ihre Seiten ein, direkt vor &lt;/body&gt;. Nachrichten der Besucher kommen im Posteingang auf dem Kanal Web-Widget an, und Ihre Antworten erscheinen sofort in ihrem Chat.</translation>
    </message>
    <message>
        <source>https://crm.example.com</source>
        <translation>https://crm.example.com</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Server address:</source>
        <translation>Serveradresse:</translation>
    </message>
    <message>
        <source>Embed code:</source>
        <translation>Einbettungscode:</translation>
    </message>
    <message>
        <source>The API server is not running: enter the address where visitors&apos; browsers reach it.</source>
        <translation>Der API-Server läuft nicht: Geben Sie die Adresse ein, unter der die Browser der Besucher ihn erreichen.</translation>
    </message>
    <message>
        <source>This address only works on this computer. For a public site, enter the address visitors&apos; browsers reach (and let the server listen on it).</source>
        <translation>Diese Adresse funktioniert nur auf diesem Computer. Geben Sie für eine öffentliche Website die Adresse ein, die die Browser der Besucher erreichen (und lassen Sie den Server darauf lauschen).</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>In die Zwischenablage kopiert.</translation>
    </message>
</context>
<context>
    <name>WonDialog</name>
    <message>
        <source>Deal won: %1</source>
        <translation>Deal gewonnen: %1</translation>
    </message>
    <message>
        <source>How was it won? (optional)</source>
        <translation>Wie wurde er gewonnen? (optional)</translation>
    </message>
    <message>
        <source>Closed value</source>
        <translation>Abschlusswert</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Mark won</source>
        <translation>Als gewonnen markieren</translation>
    </message>
</context>
<context>
    <name>AssistantTestConsole</name>
    <message>
        <source>Ask a question: the entries that would answer it are listed here, best first.</source>
        <translation>Stellen Sie eine Frage: Die Einträge, die sie beantworten würden, werden hier aufgeführt, die besten zuerst.</translation>
    </message>
    <message>
        <source>Ask as a customer would, and see what the assistant answers and why. Nothing is stored or sent to anyone.</source>
        <translation>Fragen Sie wie ein Kunde und sehen Sie, was der Assistent antwortet und warum. Nichts wird gespeichert oder an jemanden gesendet.</translation>
    </message>
    <message>
        <source>A customer&apos;s question, e.g. How much is shipping?</source>
        <translation>Eine Kundenfrage, z. B. Was kostet der Versand?</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>The language of the question: found from its words, or the one chosen</source>
        <translation>Die Sprache der Frage: aus ihren Wörtern erkannt oder die gewählte</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Ask the assistant (Enter)</source>
        <translation>Den Assistenten fragen (Eingabe)</translation>
    </message>
    <message>
        <source>Confidence: how well the best entry covers the question&apos;s words, weighted by how rare they are. Margin: its lead over the next entry. The assistant answers when both reach their thresholds.</source>
        <translation>Konfidenz: wie gut der beste Eintrag die Wörter der Frage abdeckt, gewichtet nach ihrer Seltenheit. Abstand: sein Vorsprung vor dem nächsten Eintrag. Der Assistent antwortet, wenn beide ihre Schwellenwerte erreichen.</translation>
    </message>
    <message>
        <source>Reply the customer gets</source>
        <translation>Antwort, die der Kunde erhält</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Kandidaten</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Punktzahl</translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation>Abdeckung</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <source>Matched words</source>
        <translation>Gefundene Wörter</translation>
    </message>
    <message>
        <source>BM25F: the words&apos; weight in the entry&apos;s question, tags and answer</source>
        <translation>BM25F: das Gewicht der Wörter in Frage, Tags und Antwort des Eintrags</translation>
    </message>
    <message>
        <source>How much of the question the entry holds, rare words counting more</source>
        <translation>Wie viel der Frage der Eintrag enthält, seltene Wörter zählen mehr</translation>
    </message>
    <message>
        <source>Coverage weighted with how much of the entry&apos;s question the words hold</source>
        <translation>Abdeckung, gewichtet danach, wie viel der Frage des Eintrags die Wörter ausmachen</translation>
    </message>
    <message>
        <source>Asking…</source>
        <translation>Wird gefragt…</translation>
    </message>
    <message>
        <source>The question could not be asked: %1</source>
        <translation>Die Frage konnte nicht gestellt werden: %1</translation>
    </message>
    <message>
        <source>Answers with “%1”</source>
        <translation>Antwortet mit „%1“</translation>
    </message>
    <message>
        <source>Hands off to a person: %1</source>
        <translation>Übergibt an eine Person: %1</translation>
    </message>
    <message>
        <source>Reply the customer gets while a person takes over</source>
        <translation>Antwort, die der Kunde erhält, während eine Person übernimmt</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1, detected</source>
        <translation>%1, erkannt</translation>
    </message>
    <message>
        <source>Confidence %1 (answers from %2) · margin %3 (at least %4) · language: %5</source>
        <translation>Konfidenz %1 (antwortet ab %2) · Abstand %3 (mindestens %4) · Sprache: %5</translation>
    </message>
    <message>
        <source>Words no entry holds: %1</source>
        <translation>Wörter, die kein Eintrag enthält: %1</translation>
    </message>
    <message>
        <source>No entry shares a word with the question.</source>
        <translation>Kein Eintrag hat ein Wort mit der Frage gemeinsam.</translation>
    </message>
    <message>
        <source>An entry in another language would answer (%1): “%2”, confidence %3.</source>
        <translation>Ein Eintrag in einer anderen Sprache würde antworten (%1): „%2“, Konfidenz %3.</translation>
    </message>
</context>
<context>
    <name>AssistantText</name>
    <message>
        <source>FAQ</source>
        <translation>FAQ</translation>
    </message>
    <message>
        <source>Article</source>
        <translation>Artikel</translation>
    </message>
    <message>
        <source>Snippet</source>
        <translation>Textbaustein</translation>
    </message>
    <message>
        <source>No entry of the knowledge base answers it</source>
        <translation>Kein Eintrag der Wissensdatenbank beantwortet sie</translation>
    </message>
    <message>
        <source>The best entry is not close enough</source>
        <translation>Der beste Eintrag ist nicht nah genug</translation>
    </message>
    <message>
        <source>Two entries answer it about as well</source>
        <translation>Zwei Einträge beantworten sie etwa gleich gut</translation>
    </message>
    <message>
        <source>The customer asks for a person</source>
        <translation>Der Kunde fragt nach einer Person</translation>
    </message>
    <message>
        <source>The knowledge base holds no entry in this language</source>
        <translation>Die Wissensdatenbank enthält keinen Eintrag in dieser Sprache</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>AssistantView</name>
    <message>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <source>Test console</source>
        <translation>Testkonsole</translation>
    </message>
    <message>
        <source>The questions customers ask and the answers the assistant gives</source>
        <translation>Die Fragen der Kunden und die Antworten des Assistenten</translation>
    </message>
    <message>
        <source>Ask a question and see what the assistant would answer, and why</source>
        <translation>Stellen Sie eine Frage und sehen Sie, was der Assistent antworten würde und warum</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation>Vorschläge</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Questions the assistant could not answer, grouped: answer them into entries</source>
        <translation>Fragen, die der Assistent nicht beantworten konnte, gruppiert: Beantworten Sie sie als Einträge</translation>
    </message>
    <message>
        <source>How many questions the assistant answered and handed off, and how its answers were rated</source>
        <translation>Wie viele Fragen der Assistent beantwortet und übergeben hat und wie seine Antworten bewertet wurden</translation>
    </message>
</context>
<context>
    <name>KnowledgeBasePanel</name>
    <message>
        <source>New…</source>
        <translation>Neu…</translation>
    </message>
    <message>
        <source>Write a new entry (Ctrl+N)</source>
        <translation>Einen neuen Eintrag schreiben (Strg+N)</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Change the chosen entry (Enter, or a double-click)</source>
        <translation>Den gewählten Eintrag ändern (Eingabe oder Doppelklick)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the chosen entry (Delete)</source>
        <translation>Den gewählten Eintrag löschen (Entf)</translation>
    </message>
    <message>
        <source>Import CSV…</source>
        <translation>CSV importieren…</translation>
    </message>
    <message>
        <source>Add or change entries from a CSV file: columns question, answer, language, and type, tags, id when you have them</source>
        <translation>Einträge aus einer CSV-Datei hinzufügen oder ändern: Spalten question, answer, language sowie type, tags, id, wenn vorhanden</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Save the entries the search and filters show</source>
        <translation>Die Einträge speichern, die Suche und Filter anzeigen</translation>
    </message>
    <message>
        <source>Search questions, answers and tags…</source>
        <translation>Fragen, Antworten und Tags durchsuchen…</translation>
    </message>
    <message>
        <source>Search the knowledge base</source>
        <translation>Die Wissensdatenbank durchsuchen</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Every type</source>
        <translation>Jeder Typ</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <source>The knowledge base is empty. Write the questions customers ask and their answers, or import them from a CSV file.</source>
        <translation>Die Wissensdatenbank ist leer. Schreiben Sie die Fragen der Kunden und ihre Antworten auf oder importieren Sie sie aus einer CSV-Datei.</translation>
    </message>
    <message>
        <source>Import progress</source>
        <translation>Importfortschritt</translation>
    </message>
    <message>
        <source>Cancel import</source>
        <translation>Import abbrechen</translation>
    </message>
    <message>
        <source>Stop after the rows being written: those saved until then stay</source>
        <translation>Nach den gerade geschriebenen Zeilen anhalten: Die bis dahin gespeicherten bleiben</translation>
    </message>
    <message>
        <source>Every language</source>
        <translation>Jede Sprache</translation>
    </message>
    <message>
        <source>Every tag</source>
        <translation>Jedes Tag</translation>
    </message>
    <message>
        <source>No entry matches the search or the filters.</source>
        <translation>Kein Eintrag entspricht der Suche oder den Filtern.</translation>
    </message>
    <message>
        <source>Clear the search and filters</source>
        <translation>Suche und Filter zurücksetzen</translation>
    </message>
    <message>
        <source>New entry…</source>
        <translation>Neuer Eintrag…</translation>
    </message>
    <message>
        <source>Entry saved.</source>
        <translation>Eintrag gespeichert.</translation>
    </message>
    <message>
        <source>Delete entry</source>
        <translation>Eintrag löschen</translation>
    </message>
    <message>
        <source>Delete “%1”? The assistant stops answering with it.</source>
        <translation>„%1“ löschen? Der Assistent antwortet dann nicht mehr damit.</translation>
    </message>
    <message>
        <source>Entry deleted.</source>
        <translation>Eintrag gelöscht.</translation>
    </message>
    <message>
        <source>Import knowledge from CSV</source>
        <translation>Wissen aus CSV importieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt)</source>
        <translation>CSV-Dateien (*.csv *.txt)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 is too large to import (at most %2 MB).</source>
        <translation>%1 ist zu groß zum Importieren (höchstens %2 MB).</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert…</translation>
    </message>
    <message>
        <source>Stopping after the rows being written…</source>
        <translation>Wird nach den gerade geschriebenen Zeilen angehalten…</translation>
    </message>
    <message>
        <source>Importing %1: %2 of %3 rows…</source>
        <translation>%1 wird importiert: %2 von %3 Zeilen…</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>%1 wurde nicht importiert: %2</translation>
    </message>
    <message>
        <source>Import CSV</source>
        <translation>CSV importieren</translation>
    </message>
    <message>
        <source>Import of %1 stopped: %2 new, %3 changed.</source>
        <translation>Import von %1 angehalten: %2 neu, %3 geändert.</translation>
    </message>
    <message>
        <source>%1 imported: %2 new, %3 changed, %4 left out.</source>
        <translation>%1 importiert: %2 neu, %3 geändert, %4 ausgelassen.</translation>
    </message>
    <message>
        <source>Export knowledge to CSV</source>
        <translation>Wissen als CSV exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>knowledge-base.csv</source>
        <translation>wissensdatenbank.csv</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 wurde nicht gespeichert: %2</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entries saved to %1.</source>
        <translation>
            <numerusform>%Ln Eintrag in %1 gespeichert.</numerusform>
            <numerusform>%Ln Einträge in %1 gespeichert.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>KnowledgeEditor</name>
    <message>
        <source>Edit knowledge entry</source>
        <translation>Wissenseintrag bearbeiten</translation>
    </message>
    <message>
        <source>New knowledge entry</source>
        <translation>Neuer Wissenseintrag</translation>
    </message>
    <message>
        <source>FAQ: a question and its answer; article: a longer text; snippet: a ready reply</source>
        <translation>FAQ: eine Frage und ihre Antwort; Artikel: ein längerer Text; Textbaustein: eine fertige Antwort</translation>
    </message>
    <message>
        <source>The language the customer writes in: choose one, or type its code (de, ar, …)</source>
        <translation>Die Sprache, in der der Kunde schreibt: Wählen Sie eine oder geben Sie ihren Code ein (de, ar, …)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>As a customer would ask it</source>
        <translation>So, wie ein Kunde fragen würde</translation>
    </message>
    <message>
        <source>The reply the customer gets</source>
        <translation>Die Antwort, die der Kunde erhält</translation>
    </message>
    <message>
        <source>Separated by commas: shipping, returns</source>
        <translation>Durch Kommas getrennt: Versand, Rücksendungen</translation>
    </message>
    <message>
        <source>&amp;Type</source>
        <translation>&amp;Typ</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>&amp;Question</source>
        <translation>&amp;Frage</translation>
    </message>
    <message>
        <source>&amp;Answer</source>
        <translation>&amp;Antwort</translation>
    </message>
    <message>
        <source>Ta&amp;gs</source>
        <translation>Ta&amp;gs</translation>
    </message>
    <message>
        <source>Last changed %1</source>
        <translation>Zuletzt geändert %1</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Save (Ctrl+Enter)</source>
        <translation>Speichern (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Wird gespeichert…</translation>
    </message>
</context>
<context>
    <name>KnowledgeImportReportDialog</name>
    <message>
        <source>Import of %1</source>
        <translation>Import von %1</translation>
    </message>
    <message>
        <source>Stopped at Cancel: the rows read until then are saved, the rest of the file is not.</source>
        <translation>Bei „Abbrechen“ angehalten: Die bis dahin gelesenen Zeilen sind gespeichert, der Rest der Datei nicht.</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>Rows left out</source>
        <translation>Ausgelassene Zeilen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Save as CSV…</source>
        <translation>Als CSV speichern…</translation>
    </message>
    <message>
        <source>Save the rows left out, with their lines and problems, to fix the file</source>
        <translation>Die ausgelassenen Zeilen mit ihren Zeilennummern und Problemen speichern, um die Datei zu korrigieren</translation>
    </message>
    <message>
        <source>Save the import report</source>
        <translation>Den Importbericht speichern</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>%1-report.csv</source>
        <translation>%1-bericht.csv</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>Gespeichert in %1.</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>New entries: %1 · changed: %2 · unchanged: %3 · left out: %4 (of %5 rows read)</source>
        <translation>Neue Einträge: %1 · geändert: %2 · unverändert: %3 · ausgelassen: %4 (von %5 gelesenen Zeilen)</translation>
    </message>
</context>
<context>
    <name>AssistantPage</name>
    <message>
        <source>Website</source>
        <translation>Website</translation>
    </message>
    <message>
        <source>The assistant answers customers&apos; questions from the knowledge base, and hands to a person what it cannot answer. The language model&apos;s key is kept in the system keychain; changes take effect at the next start.</source>
        <translation>Der Assistent beantwortet Kundenfragen aus der Wissensdatenbank und übergibt an eine Person, was er nicht beantworten kann. Der Schlüssel des Sprachmodells wird im Schlüsselbund des Systems gespeichert; Änderungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>Sprachmodell</translation>
    </message>
    <message>
        <source>Optional: an OpenAI-compatible server (llama.cpp&apos;s llama-server, Ollama&apos;s /v1 or a hosted service) that words the answer from the entries the assistant found. Without one, customers get the entry&apos;s answer as written.</source>
        <translation>Optional: ein OpenAI-kompatibler Server (llama-server von llama.cpp, /v1 von Ollama oder ein gehosteter Dienst), der die Antwort aus den gefundenen Einträgen formuliert. Ohne ihn erhalten Kunden die Antwort des Eintrags so, wie sie geschrieben ist.</translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation>API-Basis-URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Only if the server asks for one</source>
        <translation>Nur wenn der Server einen verlangt</translation>
    </message>
    <message>
        <source>Remove the stored key</source>
        <translation>Gespeicherten Schlüssel entfernen</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>How long one answer of the model may take; past it the entry&apos;s answer is sent</source>
        <translation>Wie lange eine Antwort des Modells dauern darf; danach wird die Antwort des Eintrags gesendet</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>Try the model</source>
        <translation>Modell ausprobieren</translation>
    </message>
    <message>
        <source>Ask the model one question with the values above (saved or not): “%1”</source>
        <translation>Dem Modell eine Frage mit den obigen Werten stellen (gespeichert oder nicht): „%1“</translation>
    </message>
    <message>
        <source>When the assistant answers</source>
        <translation>Wann der Assistent antwortet</translation>
    </message>
    <message>
        <source>Answer threshold</source>
        <translation>Antwortschwelle</translation>
    </message>
    <message>
        <source>The assistant answers when its best entry covers the question at least this well (0 to 1; default 0.30); below it, the question goes to a person. Higher: fewer answers, surer ones.</source>
        <translation>Der Assistent antwortet, wenn sein bester Eintrag die Frage mindestens so gut abdeckt (0 bis 1; Standard 0,30); darunter geht die Frage an eine Person. Höher: weniger Antworten, dafür sicherere.</translation>
    </message>
    <message>
        <source>Margin threshold</source>
        <translation>Abstandsschwelle</translation>
    </message>
    <message>
        <source>The lead the best entry needs over the next one with another answer (0 to 1; default 0.02); closer than this, the question is ambiguous and goes to a person.</source>
        <translation>Der Vorsprung, den der beste Eintrag vor dem nächsten mit einer anderen Antwort braucht (0 bis 1; Standard 0,02); ist er knapper, ist die Frage mehrdeutig und geht an eine Person.</translation>
    </message>
    <message>
        <source>In the Inbox</source>
        <translation>Im Posteingang</translation>
    </message>
    <message>
        <source>Off: the assistant stays out of the channel&apos;s conversations. Suggest: its answer waits in the composer for an agent to send, change or discard. On: it answers at once, and hands to a person what it cannot answer.</source>
        <translation>Aus: Der Assistent hält sich aus den Unterhaltungen des Kanals heraus. Vorschlagen: Seine Antwort wartet im Eingabefeld, bis ein Mitarbeiter sie sendet, ändert oder verwirft. An: Er antwortet sofort und übergibt an eine Person, was er nicht beantworten kann.</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Suggest</source>
        <translation>Vorschlagen</translation>
    </message>
    <message>
        <source>On</source>
        <translation>An</translation>
    </message>
    <message>
        <source>The assistant&apos;s name</source>
        <translation>Name des Assistenten</translation>
    </message>
    <message>
        <source>The name customers see on the assistant&apos;s messages</source>
        <translation>Der Name, den Kunden bei den Nachrichten des Assistenten sehen</translation>
    </message>
    <message>
        <source>Are you open on Saturdays?</source>
        <translation>Haben Sie samstags geöffnet?</translation>
    </message>
    <message>
        <source>What are your opening hours?</source>
        <translation>Wie sind Ihre Öffnungszeiten?</translation>
    </message>
    <message>
        <source>We are open from 9:00 to 18:00 on weekdays and from 10:00 to 16:00 on Saturdays.</source>
        <translation>Wir haben werktags von 9:00 bis 18:00 Uhr und samstags von 10:00 bis 16:00 Uhr geöffnet.</translation>
    </message>
    <message>
        <source>The key typed above is stored when you save.</source>
        <translation>Der oben eingegebene Schlüssel wird beim Speichern gespeichert.</translation>
    </message>
    <message>
        <source>No key is stored.</source>
        <translation>Kein Schlüssel gespeichert.</translation>
    </message>
    <message>
        <source>A key is stored; type another to replace it.</source>
        <translation>Ein Schlüssel ist gespeichert; geben Sie einen anderen ein, um ihn zu ersetzen.</translation>
    </message>
    <message>
        <source>correct the fields marked above.</source>
        <translation>Korrigieren Sie die oben markierten Felder.</translation>
    </message>
    <message>
        <source>Not asked: correct the fields marked above.</source>
        <translation>Nicht gefragt: Korrigieren Sie die oben markierten Felder.</translation>
    </message>
    <message>
        <source>Type the model&apos;s base URL first.</source>
        <translation>Geben Sie zuerst die Basis-URL des Modells ein.</translation>
    </message>
    <message>
        <source>Not asked: no language model is set up.</source>
        <translation>Nicht gefragt: Es ist kein Sprachmodell eingerichtet.</translation>
    </message>
    <message>
        <source>Trying the model is not available here.</source>
        <translation>Das Modell auszuprobieren ist hier nicht verfügbar.</translation>
    </message>
    <message>
        <source>Asking the model…</source>
        <translation>Das Modell wird gefragt…</translation>
    </message>
    <message>
        <source>The model answered in %1 s: “%2”</source>
        <translation>Das Modell hat in %1 s geantwortet: „%2“</translation>
    </message>
    <message>
        <source>The model answered in %1 s that the entry does not answer the question: it would hand the question to a person.</source>
        <translation>Das Modell hat in %1 s geantwortet, dass der Eintrag die Frage nicht beantwortet: Es würde die Frage an eine Person übergeben.</translation>
    </message>
    <message>
        <source>No answer from the model: %1</source>
        <translation>Keine Antwort vom Modell: %1</translation>
    </message>
    <message>
        <source>no connection</source>
        <translation>keine Verbindung</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>Assista&amp;nt…</source>
        <translation>Assiste&amp;nt…</translation>
    </message>
    <message>
        <source>e.g. %1</source>
        <translation>z. B. %1</translation>
    </message>
</context>
<context>
    <name>AssistantStatsPanel</name>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Letzter %n Tag</numerusform>
            <numerusform>Letzte %n Tage</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation>&amp;Zeitraum:</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Questions the assistant was asked in the period</source>
        <translation>Fragen, die dem Assistenten im Zeitraum gestellt wurden</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>Beantwortet</translation>
    </message>
    <message>
        <source>Answered from the knowledge base, without a person</source>
        <translation>Aus der Wissensdatenbank beantwortet, ohne Person</translation>
    </message>
    <message>
        <source>Handed off</source>
        <translation>Übergeben</translation>
    </message>
    <message>
        <source>Handed to a person: why, in the table of reasons</source>
        <translation>An eine Person übergeben: warum, steht in der Tabelle der Gründe</translation>
    </message>
    <message>
        <source>Average confidence</source>
        <translation>Durchschnittliche Konfidenz</translation>
    </message>
    <message>
        <source>How well the best entry covered the question, on average over every question</source>
        <translation>Wie gut der beste Eintrag die Frage abdeckte, im Durchschnitt über alle Fragen</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>Rückmeldungen</translation>
    </message>
    <message>
        <source>Ratings of the answers, and the share that were positive</source>
        <translation>Bewertungen der Antworten und der Anteil positiver</translation>
    </message>
    <message>
        <source>Open suggestions</source>
        <translation>Offene Vorschläge</translation>
    </message>
    <message>
        <source>Groups of questions nobody answered yet, whatever the period: the Suggestions tab lists them</source>
        <translation>Gruppen von Fragen, die noch niemand beantwortet hat, unabhängig vom Zeitraum: Der Reiter „Vorschläge“ listet sie</translation>
    </message>
    <message>
        <source>Questions per day</source>
        <translation>Fragen pro Tag</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
    <message>
        <source>Why questions went to a person</source>
        <translation>Warum Fragen an eine Person gingen</translation>
    </message>
    <message>
        <source>No question went to a person in this period.</source>
        <translation>In diesem Zeitraum ging keine Frage an eine Person.</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>Most used entries</source>
        <translation>Meistgenutzte Einträge</translation>
    </message>
    <message>
        <source>No question was answered in this period.</source>
        <translation>In diesem Zeitraum wurde keine Frage beantwortet.</translation>
    </message>
    <message>
        <source>Negative</source>
        <translation>Negativ</translation>
    </message>
    <message>
        <source>Positive</source>
        <translation>Positiv</translation>
    </message>
    <message>
        <source>Negative share</source>
        <translation>Negativer Anteil</translation>
    </message>
    <message>
        <source>Entries with the worst feedback</source>
        <translation>Einträge mit der schlechtesten Rückmeldung</translation>
    </message>
    <message>
        <source>No answer got negative feedback in this period.</source>
        <translation>In diesem Zeitraum erhielt keine Antwort eine negative Rückmeldung.</translation>
    </message>
    <message>
        <source>Double-click an entry, or press Enter, to open it</source>
        <translation>Doppelklicken Sie auf einen Eintrag oder drücken Sie Eingabe, um ihn zu öffnen</translation>
    </message>
    <message>
        <source>That entry was deleted since.</source>
        <translation>Dieser Eintrag wurde inzwischen gelöscht.</translation>
    </message>
    <message>
        <source>Reading the figures…</source>
        <translation>Die Zahlen werden gelesen…</translation>
    </message>
    <message>
        <source>The figures could not be read: %1</source>
        <translation>Die Zahlen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1 to %2, in %3</source>
        <translation>%1 bis %2, in %3</translation>
    </message>
    <message numerus="yes">
        <source>in the last %n day(s)</source>
        <translation>
            <numerusform>am letzten %n Tag</numerusform>
            <numerusform>in den letzten %n Tagen</numerusform>
        </translation>
    </message>
    <message>
        <source>rate: %1</source>
        <translation>Quote: %1</translation>
    </message>
    <message>
        <source>over every question</source>
        <translation>über alle Fragen</translation>
    </message>
    <message>
        <source>no questions yet</source>
        <translation>noch keine Fragen</translation>
    </message>
    <message>
        <source>positive: %1</source>
        <translation>positiv: %1</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>noch keine</translation>
    </message>
    <message>
        <source>(deleted entry)</source>
        <translation>(gelöschter Eintrag)</translation>
    </message>
    <message>
        <source>waiting for an answer</source>
        <translation>wartet auf eine Antwort</translation>
    </message>
</context>
<context>
    <name>SuggestionsPanel</name>
    <message>
        <source>Questions the assistant handed to a person because no entry answered them, grouped when customers asked the same in other words. Answer one to teach it to the assistant.</source>
        <translation>Fragen, die der Assistent an eine Person übergeben hat, weil kein Eintrag sie beantwortete, gruppiert, wenn Kunden dasselbe mit anderen Worten fragten. Beantworten Sie eine, um sie dem Assistenten beizubringen.</translation>
    </message>
    <message>
        <source>Accept…</source>
        <translation>Annehmen…</translation>
    </message>
    <message>
        <source>Write the answer: the question becomes an entry of the knowledge base (Enter, or a double-click)</source>
        <translation>Die Antwort schreiben: Die Frage wird ein Eintrag der Wissensdatenbank (Eingabe oder Doppelklick)</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Take it off the list: the same question asked again does not bring it back (Delete)</source>
        <translation>Von der Liste nehmen: Dieselbe Frage bringt sie nicht zurück, wenn sie erneut gestellt wird (Entf)</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Asked</source>
        <translation>Gefragt</translation>
    </message>
    <message>
        <source>Last asked</source>
        <translation>Zuletzt gefragt</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation>Vorschläge</translation>
    </message>
    <message>
        <source>How many times customers asked it</source>
        <translation>Wie oft Kunden sie gestellt haben</translation>
    </message>
    <message>
        <source>No suggestions: the assistant answered every question customers asked, or they were dealt with.</source>
        <translation>Keine Vorschläge: Der Assistent hat jede Kundenfrage beantwortet, oder sie wurden erledigt.</translation>
    </message>
    <message>
        <source>Reading the questions…</source>
        <translation>Die Fragen werden gelesen…</translation>
    </message>
    <message>
        <source>The suggestions could not be read: %1</source>
        <translation>Die Vorschläge konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Asked once, on %1.</source>
        <translation>Einmal gefragt, am %1.</translation>
    </message>
    <message numerus="yes">
        <source>Asked %n time(s), first on %1, last on %2.</source>
        <translation>
            <numerusform>%n-mal gefragt, zuerst am %1, zuletzt am %2.</numerusform>
            <numerusform>%n-mal gefragt, zuerst am %1, zuletzt am %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>Also asked as: %1</source>
        <translation>Auch gefragt als: %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Why it went to a person: %1</source>
        <translation>Warum sie an eine Person ging: %1</translation>
    </message>
    <message>
        <source>Answer a suggestion</source>
        <translation>Einen Vorschlag beantworten</translation>
    </message>
    <message numerus="yes">
        <source>Customers asked this %n time(s). Write the answer the assistant should give: once saved, the entry answers these questions and the suggestion leaves the list.</source>
        <translation>
            <numerusform>Kunden haben dies %n-mal gefragt. Schreiben Sie die Antwort, die der Assistent geben soll: Nach dem Speichern beantwortet der Eintrag diese Fragen, und der Vorschlag verschwindet von der Liste.</numerusform>
            <numerusform>Kunden haben dies %n-mal gefragt. Schreiben Sie die Antwort, die der Assistent geben soll: Nach dem Speichern beantwortet der Eintrag diese Fragen, und der Vorschlag verschwindet von der Liste.</numerusform>
        </translation>
    </message>
    <message>
        <source>Entry saved: the assistant answers these questions now.</source>
        <translation>Eintrag gespeichert: Der Assistent beantwortet diese Fragen jetzt.</translation>
    </message>
    <message>
        <source>Dismiss suggestion</source>
        <translation>Vorschlag verwerfen</translation>
    </message>
    <message>
        <source>Dismiss “%1”? Its questions leave the list, and the same question asked again does not bring it back.</source>
        <translation>„%1“ verwerfen? Seine Fragen verschwinden von der Liste, und dieselbe Frage bringt ihn nicht zurück, wenn sie erneut gestellt wird.</translation>
    </message>
    <message>
        <source>Suggestion dismissed.</source>
        <translation>Vorschlag verworfen.</translation>
    </message>
    <message>
        <source>Suggestion “%1” dismissed.</source>
        <translation>Vorschlag „%1“ verworfen.</translation>
    </message>
    <message>
        <source>Undone.</source>
        <translation>Rückgängig gemacht.</translation>
    </message>
    <message>
        <source>The suggestion was not dismissed: %1</source>
        <translation>Der Vorschlag wurde nicht verworfen: %1</translation>
    </message>
</context>
<context>
    <name>BackupPage</name>
    <message>
        <source>Last backup</source>
        <translation>Letzte Sicherung</translation>
    </message>
    <message>
        <source>Back up now</source>
        <translation>Jetzt sichern</translation>
    </message>
    <message>
        <source>Automatic backups</source>
        <translation>Automatische Sicherungen</translation>
    </message>
    <message>
        <source>Backups to keep</source>
        <translation>Aufbewahrte Sicherungen</translation>
    </message>
    <message>
        <source>Backups to keep:</source>
        <translation>Aufbewahrte Sicherungen:</translation>
    </message>
    <message>
        <source>While Liaison runs it makes one backup a day of the database and the uploaded files into the folder above, and deletes the oldest beyond this number. 0 turns the daily backup off. Changes take effect at the next start. To restore a backup, close Liaison and run: liaison restore FILE</source>
        <translation>Solange Liaison läuft, legt es einmal täglich eine Sicherung der Datenbank und der hochgeladenen Dateien im obigen Ordner an und löscht die ältesten, die über diese Anzahl hinausgehen. 0 schaltet die tägliche Sicherung aus. Änderungen gelten ab dem nächsten Start. Um eine Sicherung wiederherzustellen, schließen Sie Liaison und führen Sie aus: liaison restore DATEI</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>This data directory uses a team&apos;s PostgreSQL database: back it up with pg_dump (&quot;liaison backup FILE&quot; prints the command to use).</source>
        <translation>Dieses Datenverzeichnis verwendet die PostgreSQL-Datenbank eines Teams: Sichern Sie sie mit pg_dump (&quot;liaison backup DATEI&quot; gibt den passenden Befehl aus).</translation>
    </message>
    <message>
        <source>Folder: %1 (backups in it: %2)</source>
        <translation>Ordner: %1 (Sicherungen darin: %2)</translation>
    </message>
    <message>
        <source>No backup yet.</source>
        <translation>Noch keine Sicherung.</translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2, %3</translation>
    </message>
    <message>
        <source>Backing up…</source>
        <translation>Sicherung läuft…</translation>
    </message>
    <message>
        <source>an unknown error</source>
        <translation>ein unbekannter Fehler</translation>
    </message>
    <message>
        <source>The backup failed: %1</source>
        <translation>Die Sicherung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Backed up into %1.</source>
        <translation>Gesichert in %1.</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Konnte nicht speichern: %1</translation>
    </message>
    <message>
        <source>Saved. The new settings take effect at the next start.</source>
        <translation>Gespeichert. Die neuen Einstellungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>Sicherungen</translation>
    </message>
    <message>
        <source>&amp;Backups…</source>
        <translation>Si&amp;cherungen…</translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message>
        <source>Find duplicates</source>
        <translation>Duplikate finden</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Groups of duplicates</source>
        <translation>Duplikatgruppen</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Behalten</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Zusammenführen</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Firma</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Contacts of the group</source>
        <translation>Kontakte der Gruppe</translation>
    </message>
    <message>
        <source>Merge into the kept contact</source>
        <translation>Mit dem beibehaltenen Kontakt zusammenführen</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Same e-mail: %1</source>
        <translation>Gleiche E-Mail-Adresse: %1</translation>
    </message>
    <message>
        <source>Same phone: %1</source>
        <translation>Gleiche Telefonnummer: %1</translation>
    </message>
    <message>
        <source>Same name and company: %1</source>
        <translation>Gleicher Name und gleiche Firma: %1</translation>
    </message>
    <message>
        <source>No duplicates found.</source>
        <translation>Keine Duplikate gefunden.</translation>
    </message>
    <message>
        <source>Groups of contacts that look like one person: %1 (the newest %2 are listed).</source>
        <translation>Gruppen von Kontakten, die nach derselben Person aussehen: %1 (die neuesten %2 werden angezeigt).</translation>
    </message>
    <message>
        <source>Groups of contacts that look like one person: %1.</source>
        <translation>Gruppen von Kontakten, die nach derselben Person aussehen: %1.</translation>
    </message>
    <message>
        <source>e-mail</source>
        <translation>E-Mail-Adresse</translation>
    </message>
    <message>
        <source>phone</source>
        <translation>Telefonnummer</translation>
    </message>
    <message>
        <source>name and company</source>
        <translation>Name und Firma</translation>
    </message>
    <message>
        <source>Same %1</source>
        <translation>Übereinstimmend: %1</translation>
    </message>
    <message>
        <source>Why they match:</source>
        <translation>Warum sie übereinstimmen:</translation>
    </message>
    <message>
        <source>Keep this contact</source>
        <translation>Diesen Kontakt behalten</translation>
    </message>
    <message>
        <source>Merge this contact into the kept one</source>
        <translation>Diesen Kontakt mit dem beibehaltenen zusammenführen</translation>
    </message>
    <message>
        <source>Tick at least one contact to merge.</source>
        <translation>Markieren Sie mindestens einen Kontakt zum Zusammenführen.</translation>
    </message>
    <message>
        <source>notes: %1</source>
        <translation>Notizen: %1</translation>
    </message>
    <message>
        <source>deals: %1</source>
        <translation>Deals: %1</translation>
    </message>
    <message>
        <source>tasks: %1</source>
        <translation>Aufgaben: %1</translation>
    </message>
    <message>
        <source>conversations: %1</source>
        <translation>Unterhaltungen: %1</translation>
    </message>
    <message>
        <source>segment memberships: %1</source>
        <translation>Segmentmitgliedschaften: %1</translation>
    </message>
    <message>
        <source>campaign records: %1</source>
        <translation>Kampagneneinträge: %1</translation>
    </message>
    <message>
        <source>%1 is kept; %2 other contact(s) are merged into it and removed.</source>
        <translation>%1 bleibt erhalten; Kontakte, die damit zusammengeführt und entfernt werden: %2.</translation>
    </message>
    <message>
        <source>Nothing else moves.</source>
        <translation>Sonst wird nichts übertragen.</translation>
    </message>
    <message>
        <source>Moves to the kept contact: %1.</source>
        <translation>Auf den beibehaltenen Kontakt übertragen werden: %1.</translation>
    </message>
    <message>
        <source>Fields it takes from the others: %1.</source>
        <translation>Felder, die er von den anderen übernimmt: %1.</translation>
    </message>
    <message>
        <source>Merged into %1: %2 contact(s).</source>
        <translation>Mit %1 zusammengeführt: %2 Kontakt(e).</translation>
    </message>
    <message>
        <source>Merge undone: %1 contact(s) are back.</source>
        <translation>Zusammenführung rückgängig gemacht: %1 Kontakt(e) wiederhergestellt.</translation>
    </message>
    <message>
        <source>Keep %1</source>
        <translation>%1 behalten</translation>
    </message>
    <message>
        <source>Looking for duplicates…</source>
        <translation>Duplikate werden gesucht…</translation>
    </message>
    <message>
        <source>Not kept (it has its own): %1.</source>
        <translation>Nicht übernommen (eigener Wert vorhanden): %1.</translation>
    </message>
    <message>
        <source>Contacts merged into %1.</source>
        <translation>Kontakte wurden mit %1 zusammengeführt.</translation>
    </message>
</context>
<context>
    <name>HomeView</name>
    <message>
        <source>Home</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <source>&amp;Pipeline:</source>
        <translation>&amp;Pipeline:</translation>
    </message>
    <message>
        <source>Messages of</source>
        <translation>Nachrichten</translation>
    </message>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Letzter %n Tag</numerusform>
            <numerusform>Letzte %n Tage</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Messages of:</source>
        <translation>&amp;Nachrichten:</translation>
    </message>
    <message>
        <source>Tasks due today</source>
        <translation>Heute fällige Aufgaben</translation>
    </message>
    <message>
        <source>Your open tasks due today: click to see them in Tasks</source>
        <translation>Ihre offenen Aufgaben, die heute fällig sind: Klicken Sie, um sie unter „Aufgaben“ anzuzeigen</translation>
    </message>
    <message>
        <source>Overdue tasks</source>
        <translation>Überfällige Aufgaben</translation>
    </message>
    <message>
        <source>Your open tasks past their due time: click to see them in Tasks</source>
        <translation>Ihre offenen Aufgaben, deren Fälligkeit überschritten ist: Klicken Sie, um sie unter „Aufgaben“ anzuzeigen</translation>
    </message>
    <message>
        <source>Waiting for an answer</source>
        <translation>Warten auf Antwort</translation>
    </message>
    <message>
        <source>Conversations whose last message came from the customer and that are not closed: click to see them in the Inbox</source>
        <translation>Nicht geschlossene Unterhaltungen, deren letzte Nachricht vom Kunden kam: Klicken Sie, um sie im Posteingang anzuzeigen</translation>
    </message>
    <message>
        <source>Open deals</source>
        <translation>Offene Deals</translation>
    </message>
    <message>
        <source>Deals in the pipeline&apos;s open stages and their value weighted by each stage&apos;s probability, per currency: click to open the board</source>
        <translation>Deals in den offenen Phasen der Pipeline und ihr Wert, gewichtet mit der Wahrscheinlichkeit jeder Phase, je Währung: Klicken Sie, um das Board zu öffnen</translation>
    </message>
    <message>
        <source>Open deals by stage</source>
        <translation>Offene Deals nach Phase</translation>
    </message>
    <message>
        <source>No open deals in this pipeline yet: a deal created in Deals shows here.</source>
        <translation>Noch keine offenen Deals in dieser Pipeline: Ein unter „Deals“ angelegter Deal erscheint hier.</translation>
    </message>
    <message>
        <source>Won, last 30 days</source>
        <translation>Gewonnen, letzte 30 Tage</translation>
    </message>
    <message>
        <source>Deals won in the last 30 days, today included: click to list them</source>
        <translation>In den letzten 30 Tagen gewonnene Deals, heute eingeschlossen: Klicken Sie, um sie aufzulisten</translation>
    </message>
    <message>
        <source>Won, last 90 days</source>
        <translation>Gewonnen, letzte 90 Tage</translation>
    </message>
    <message>
        <source>Deals won in the last 90 days, today included: click to list them</source>
        <translation>In den letzten 90 Tagen gewonnene Deals, heute eingeschlossen: Klicken Sie, um sie aufzulisten</translation>
    </message>
    <message>
        <source>Lost, last 30 days</source>
        <translation>Verloren, letzte 30 Tage</translation>
    </message>
    <message>
        <source>Deals lost in the last 30 days, today included: click to list them</source>
        <translation>In den letzten 30 Tagen verlorene Deals, heute eingeschlossen: Klicken Sie, um sie aufzulisten</translation>
    </message>
    <message>
        <source>Lost, last 90 days</source>
        <translation>Verloren, letzte 90 Tage</translation>
    </message>
    <message>
        <source>Deals lost in the last 90 days, today included: click to list them</source>
        <translation>In den letzten 90 Tagen verlorene Deals, heute eingeschlossen: Klicken Sie, um sie aufzulisten</translation>
    </message>
    <message>
        <source>Messages per day</source>
        <translation>Nachrichten pro Tag</translation>
    </message>
    <message>
        <source>Click a bar to see the channel&apos;s conversations in the Inbox</source>
        <translation>Klicken Sie auf einen Balken, um die Unterhaltungen des Kanals im Posteingang anzuzeigen</translation>
    </message>
    <message>
        <source>No messages in this period: conversations of WhatsApp, Telegram, Instagram and the web widget are counted here.</source>
        <translation>Keine Nachrichten in diesem Zeitraum: Gezählt werden hier Unterhaltungen über WhatsApp, Telegram, Instagram und das Web-Widget.</translation>
    </message>
    <message>
        <source>Reading the figures…</source>
        <translation>Die Zahlen werden gelesen…</translation>
    </message>
    <message>
        <source>The figures could not be read: %1</source>
        <translation>Die Zahlen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>As of %1</source>
        <translation>Stand: %1</translation>
    </message>
    <message>
        <source>nobody is signed in</source>
        <translation>niemand angemeldet</translation>
    </message>
    <message>
        <source>assigned to you</source>
        <translation>Ihnen zugewiesen</translation>
    </message>
    <message>
        <source>past their due time</source>
        <translation>Fälligkeit überschritten</translation>
    </message>
    <message>
        <source>nothing late</source>
        <translation>nichts überfällig</translation>
    </message>
    <message>
        <source>no open deals</source>
        <translation>keine offenen Deals</translation>
    </message>
    <message>
        <source>weighted: %1</source>
        <translation>gewichtet: %1</translation>
    </message>
    <message>
        <source>nobody is waiting</source>
        <translation>niemand wartet</translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n Stunde</numerusform>
            <numerusform>%n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n Tag</numerusform>
            <numerusform>%n Tage</numerusform>
        </translation>
    </message>
    <message>
        <source>the longest for %1</source>
        <translation>längste Wartezeit: %1</translation>
    </message>
    <message>
        <source>Open deals by stage: %1</source>
        <translation>Offene Deals nach Phase: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n deal(s)</source>
        <translation>
            <numerusform>%n Deal</numerusform>
            <numerusform>%n Deals</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2%): %3. Click to list them in Deals.</source>
        <translation>%1 (%2%): %3. Klicken Sie, um sie unter „Deals“ aufzulisten.</translation>
    </message>
    <message>
        <source>under a minute</source>
        <translation>unter einer Minute</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>%1 cannot be imported: %2</source>
        <translation>%1 kann nicht importiert werden: %2</translation>
    </message>
    <message>
        <source>%1 is too large to import (at most %2 MB).</source>
        <translation>%1 ist zu groß zum Importieren (höchstens %2 MB).</translation>
    </message>
    <message>
        <source>%1 new, %2 updated, %3 skipped, %4 with problems.</source>
        <translation>%1 neu, %2 aktualisiert, %3 übersprungen, %4 mit Problemen.</translation>
    </message>
    <message>
        <source>%1 rows to import, %2 columns. Check the fields of the columns and the preview.</source>
        <translation>%1 Zeilen zu importieren, %2 Spalten. Prüfen Sie die Felder der Spalten und die Vorschau.</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>%1 wurde nicht importiert: %2</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 wurde nicht gespeichert: %2</translation>
    </message>
    <message>
        <source>-report.csv</source>
        <translation>-bericht.csv</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt)</source>
        <translation>CSV-Dateien (*.csv *.txt)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Cancel import</source>
        <translation>Import abbrechen</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>Datei wählen…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>Columns of the file and their fields</source>
        <translation>Spalten der Datei und ihre Felder</translation>
    </message>
    <message>
        <source>Columns of the file</source>
        <translation>Spalten der Datei</translation>
    </message>
    <message>
        <source>Comma ,</source>
        <translation>Komma ,</translation>
    </message>
    <message>
        <source>Create a new record anyway</source>
        <translation>Trotzdem einen neuen Datensatz anlegen</translation>
    </message>
    <message>
        <source>Custom field “%1”</source>
        <translation>Benutzerdefiniertes Feld „%1“</translation>
    </message>
    <message>
        <source>Each row&apos;s outcome (new, updated, skipped and why) as a CSV file</source>
        <translation>Das Ergebnis jeder Zeile (neu, aktualisiert, übersprungen und warum) als CSV-Datei</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>Kodierung</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>Kodierung:</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>Beispiel</translation>
    </message>
    <message>
        <source>Field of column %1</source>
        <translation>Feld der Spalte %1</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Import finished: %1 Save the report to see each row&apos;s outcome.</source>
        <translation>Import abgeschlossen: %1 Speichern Sie den Bericht, um das Ergebnis jeder Zeile zu sehen.</translation>
    </message>
    <message>
        <source>Import progress</source>
        <translation>Importfortschritt</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert…</translation>
    </message>
    <message>
        <source>Importing: %1 of %2 rows (%3 new, %4 updated, %5 skipped, %6 with problems)…</source>
        <translation>Import läuft: %1 von %2 Zeilen (%3 neu, %4 aktualisiert, %5 übersprungen, %6 mit Problemen)…</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>No file chosen: a CSV file saved by Excel, LibreOffice or another program</source>
        <translation>Keine Datei gewählt: eine CSV-Datei, gespeichert von Excel, LibreOffice oder einem anderen Programm</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <source>Report saved to %1.</source>
        <translation>Bericht in %1 gespeichert.</translation>
    </message>
    <message>
        <source>Save report…</source>
        <translation>Bericht speichern…</translation>
    </message>
    <message>
        <source>Save the import report</source>
        <translation>Den Importbericht speichern</translation>
    </message>
    <message>
        <source>Semicolon ;</source>
        <translation>Semikolon ;</translation>
    </message>
    <message>
        <source>Separator</source>
        <translation>Trennzeichen</translation>
    </message>
    <message>
        <source>Separator:</source>
        <translation>Trennzeichen:</translation>
    </message>
    <message>
        <source>Skip the row (keep the stored record)</source>
        <translation>Zeile überspringen (gespeicherten Datensatz behalten)</translation>
    </message>
    <message>
        <source>Stop after the rows being written: those saved until then stay</source>
        <translation>Nach den gerade geschriebenen Zeilen anhalten: Die bis dahin gespeicherten bleiben</translation>
    </message>
    <message>
        <source>Stop the import</source>
        <translation>Import anhalten</translation>
    </message>
    <message>
        <source>Stop the import?</source>
        <translation>Import anhalten?</translation>
    </message>
    <message>
        <source>Stopped at Cancel after %1 of %2 rows: %3 The rows written until then stay.</source>
        <translation>Bei „Abbrechen“ nach %1 von %2 Zeilen angehalten: %3 Die bis dahin geschriebenen Zeilen bleiben.</translation>
    </message>
    <message>
        <source>Stopping after the rows being written…</source>
        <translation>Wird nach den gerade geschriebenen Zeilen angehalten…</translation>
    </message>
    <message>
        <source>Tab</source>
        <translation>Tabulator</translation>
    </message>
    <message>
        <source>The first %1 rows as they would be imported: no problem found.</source>
        <translation>Die ersten %1 Zeilen, wie sie importiert würden: kein Problem gefunden.</translation>
    </message>
    <message>
        <source>The first %1 rows as they would be imported: %2 would be left out, each with its problem.</source>
        <translation>Die ersten %1 Zeilen, wie sie importiert würden: %2 ausgelassen, jeweils mit Angabe des Problems.</translation>
    </message>
    <message>
        <source>The first rows as they would be imported</source>
        <translation>Die ersten Zeilen, wie sie importiert würden</translation>
    </message>
    <message>
        <source>The rows written until now stay; the rest of the file is not imported.</source>
        <translation>Die bisher geschriebenen Zeilen bleiben; der Rest der Datei wird nicht importiert.</translation>
    </message>
    <message>
        <source>UTF-8</source>
        <translation>UTF-8</translation>
    </message>
    <message>
        <source>Update the stored record with the row&apos;s values</source>
        <translation>Den gespeicherten Datensatz mit den Werten der Zeile aktualisieren</translation>
    </message>
    <message>
        <source>Windows-1254 (Turkish)</source>
        <translation>Windows-1254 (Türkisch)</translation>
    </message>
    <message>
        <source>— leave out —</source>
        <translation>— auslassen —</translation>
    </message>
</context>
</TS>
