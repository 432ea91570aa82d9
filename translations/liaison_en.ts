<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AiFeedbackButtons</name>
    <message>
        <source>Helpful</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not helpful</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why was it not helpful?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Out of date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inappropriate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out of date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inappropriate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You marked it helpful</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You marked it not helpful</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You marked it not helpful: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No feedback given yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer was helpful</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer was not helpful (the arrow: why)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AmountEdit</name>
    <message>
        <source>Enter an amount.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an amount: leave out “%2” and write digits as in %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an amount: a mark goes between digits, as in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an amount: group the digits in threes with one kind of mark, as in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is ambiguous: write %2 (an amount has at most two decimals).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is ambiguous: write %2 or %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” has more than two decimals.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An amount cannot be negative.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is too large: at most %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %1</source>
        <comment>the amount a field understood, with its currency</comment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApiKeysPage</name>
    <message>
        <source>API keys let local tools call the Liaison API. A key is shown once, when it is created; Liaison keeps only a hash of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the API keys: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke the key &quot;%1&quot;? Tools that use it will be refused at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API keys yet. Create one for each tool that uses the API, so that it can be revoked alone.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AppSettings</name>
    <message>
        <source>Website visitor</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AppearancePage</name>
    <message>
        <source>Appearance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;ppearance…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the window looks. Following the desktop, Liaison turns dark and light with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The choice applies now but was not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the desktop (dark now)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the desktop (light now)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system&apos;s language (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new language applies at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language was not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BackupPage</name>
    <message>
        <source>Last backup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back up now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic backups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backups to keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backups to keep:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While Liaison runs it makes one backup a day of the database and the uploaded files into the folder above, and deletes the oldest beyond this number. 0 turns the daily backup off. Changes take effect at the next start. To restore a backup, close Liaison and run: liaison restore FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This data directory uses a team&apos;s PostgreSQL database: back it up with pg_dump (&quot;liaison backup FILE&quot; prints the command to use).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder: %1 (backups in it: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No backup yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backing up…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The backup failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backed up into %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. The new settings take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Backups…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CampaignContactsPanel</name>
    <message>
        <source>Contact status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Came from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts of the campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps sent to the contact of the campaign&apos;s steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No contacts yet: they enter once the campaign runs, a drip&apos;s from its segment, a triggered one&apos;s as its event happens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps sent to the contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a contact to see the steps sent to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(deleted contact)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A member of the campaign&apos;s segment; entered %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; entered %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps sent to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No step has been sent to this contact yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search contacts by name…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search contacts by name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CampaignEditor</name>
    <message>
        <source>Ayşe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yılmaz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Örnek Ltd.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purchasing manager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Campaign “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. November newsletter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One message to the whole audience, now or at a set time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A series of messages, each a set time after the one before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A series of messages that starts for a contact when something happens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a segment…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Audience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag or stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starts &amp;when</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait (hours)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an approved template&apos;s name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Te&amp;mplate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a field to insert it at the cursor. A fallback follows a bar: {{firstName|there}}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge fields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send this campaign to a few addresses only, to see it as they will. Test sends are not counted in the statistics. A new campaign is saved first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>addresses, separated by commas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only a draft or scheduled campaign can be changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML &amp;body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type at least one address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: the campaign could not be saved (see above).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>A test is on its way to %n address(es).</source>
        <translation>
            <numerusform>A test is on its way to %n address.</numerusform>
            <numerusform>A test is on its way to %n addresses.</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose who receives it: a segment of contacts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n contact(s) would receive it</source>
        <translation>
            <numerusform>%n contact would receive it</numerusform>
            <numerusform>%n contacts would receive it</numerusform>
        </translation>
    </message>
    <message>
        <source>(of %1 in the segment; left out: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filled in for %1, a contact of the audience.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filled in for a sample contact, %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The approved template “%1” is sent as WhatsApp has it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>:00</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None chosen: every day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{{1}}; {{2}}; … e.g. {{firstName|there}}; November</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template &amp;values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The approved template “%1” is sent with %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CampaignRecipientsPanel</name>
    <message>
        <source>Search by address or name…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search recipients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recipient status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test sends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the test sends instead of the audience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recipients here yet: the audience is taken when the campaign starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>soft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CampaignStatsPanel</name>
    <message>
        <source>Audience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contacts of the frozen audience, skipped ones included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handed to the provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent and not bounced (SMS, WhatsApp: reported delivered)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened by a person or clicked; mail providers&apos; proxies apart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clicked a link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bounced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused by the receiving server, for good or for now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsubscribed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsubscribed through this campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left out: no address, unsubscribed, bounced before or a duplicate address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not be sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivered of sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened of delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clicked of delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Funnel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a campaign to see its statistics.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n open(s) by mail providers&apos; proxies not counted.</source>
        <translation>
            <numerusform>%n open by mail providers&apos; proxies not counted.</numerusform>
            <numerusform>%n opens by mail providers&apos; proxies not counted.</numerusform>
        </translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One message per contact and step released, skipped ones included</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CampaignText</name>
    <message>
        <source>Draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WhatsApp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Broadcast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Triggered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending</source>
        <comment>a recipient</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <comment>a recipient</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bounced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <comment>a recipient</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsubscribed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bounced before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>duplicate address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsubscribed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hard bounce</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added by hand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact is created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact gets a tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal moves to a stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A message is received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <comment>a drip&apos;s contact</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Completed</source>
        <comment>a drip&apos;s contact</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left</source>
        <comment>a drip&apos;s contact</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>address bounced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deal won</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contact deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>campaign cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts: %1 entered, %2 active, %3 completed, %4 left</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CampaignsView</name>
    <message>
        <source>Campaigns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a new campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the campaign (a draft or a scheduled one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the campaign (a draft or a scheduled one)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start sending to the audience now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose when it is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop sending for now; what is on its way finishes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go on where it stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop for good: those not sent to yet get nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again to the recipients whose message failed or bounced for now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search campaigns…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search campaigns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scheduled / started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery rate: delivered of sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open rate: opened of delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click rate: clicked of delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No campaigns yet. Write one to a segment of your contacts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New campaign…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsubscribe list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No campaign matches the search or the filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the search and filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing the newest %1 of %2 campaigns: search or filter to find the others.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>View…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Campaign saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the campaign “%1”?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Campaign “%1” deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start “%1” now? Each contact of its audience goes through its steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Send “%1” now to %n contact(s) by %2? This cannot be undone.</source>
        <translation>
            <numerusform>Send “%1” now to %n contact by %2? This cannot be undone.</numerusform>
            <numerusform>Send “%1” now to %n contacts by %2? This cannot be undone.</numerusform>
        </translation>
    </message>
    <message>
        <source>Send “%1” now? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is sending.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Don&apos;t schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is a draft again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is sent at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is paused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is sending again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel “%1”? Those it has not sent to yet get nothing, and it cannot be started again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n recipient(s) will be sent to again.</source>
        <translation>
            <numerusform>%n recipient will be sent to again.</numerusform>
            <numerusform>%n recipients will be sent to again.</numerusform>
        </translation>
    </message>
    <message>
        <source>Sending or running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 active / %2 entered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent of the audience; a drip or triggered campaign: its contacts still in it of those who entered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where each contact of a drip or triggered campaign is, and the steps it was sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is running again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChannelsPage</name>
    <message>
        <source>Channels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect the messaging channels. Tokens and secrets are kept in the system keychain; changes take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WhatsApp Cloud API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram bot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instagram messaging</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone number ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>App secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unlimited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> messages/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bot token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from @BotFather</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long polling (works behind NAT)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receive by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhook secret token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A-Z, a-z, 0-9, _ and -</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Register webhook at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional: our public https URL, registered with setWebhook at start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Account ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhook URL for the provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the API server is not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider down: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing is not available here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection works: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Channels…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContactDetailPane</name>
    <message>
        <source>Select a contact to see its details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lead score:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New tags, comma separated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a note…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select and press Remove tag (or Delete) to remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — due %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact created%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (from %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 — %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · closes %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click to open the deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal created: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 moved from %2 to %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meeting (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n unread</numerusform>
            <numerusform>%n unread</numerusform>
        </translation>
    </message>
    <message>
        <source>Double-click to open the conversation in the inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation started on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message sent on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message received on %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task created: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task done: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 started in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing has happened with this contact yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No notes yet: write one below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <comment>a short tab title</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal</source>
        <comment>a short tab title</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat</source>
        <comment>a short tab title</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <comment>a short tab title</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New deal…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal with this contact, yours unless you give it to someone else</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send a message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New task…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task about this contact, with a reminder if you want one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No deals with this contact yet: New deal adds one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversations yet. Messages from this contact&apos;s phone or e-mail appear here; Send a message starts one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No tasks for this contact yet: New task adds one, with a reminder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WhatsApp to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No channel to write on: add a phone number for WhatsApp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click to open the task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address, source, lead score and dates</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContactDialog</name>
    <message>
        <source>New contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+90 532 123 45 67</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Street:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>City:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Country:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>comma separated, e.g. vip, istanbul</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lead score:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contact could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This phone number already belongs to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This e-mail address already belongs to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already belongs to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs its country code (+90 532 …), or set the country of local numbers in Settings → Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContactTableModel</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContactsSettingsPage</name>
    <message>
        <source>Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;ontacts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Numbers written without + are read as numbers of this country and stored in their international form, in the window, the API and incoming webhooks alike. Empty: every number needs its leading +.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use %1 (+%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Country calling code:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Example: %1 is stored as %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A country calling code has 1 to 3 digits, e.g. 90.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: phone numbers need their leading +.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: numbers without + are read as +%1 numbers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Example: %1 is refused; +90 532 123 45 67 is taken as written (a number with + is kept as typed).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContactsView</name>
    <message>
        <source>Search name, e-mail, phone…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read contacts: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1? Its notes and tags are deleted too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No contact matches “%1”: change or clear the search.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No contacts in this list. Choose All contacts or another tag to see more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search all contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>segment “%1”, tag “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>segment “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tag “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching in %1 only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Searching in %1 only (%n in all contacts).</source>
        <translation>
            <numerusform>Searching in %1 only (%n in all contacts).</numerusform>
            <numerusform>Searching in %1 only (%n in all contacts).</numerusform>
        </translation>
    </message>
    <message>
        <source>Search contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No contact in %1 matches “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No contacts yet. Add the people you sell to; a first message on a channel, or a tool using the API, adds contacts too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New contact…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicates…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find contacts that look like one person and merge them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo merge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contacts saved to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact with the same e-mail or phone exists:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export contacts to CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full name (first and last)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import contacts from a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the contacts the search and filters show as a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contacts.csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CreateApiKeyDialog</name>
    <message>
        <source>Create API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. Import script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scopes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at least one scope.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everything (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Campaigns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read and write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DealCardDelegate</name>
    <message>
        <source>No contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closes %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DealColumnModel</name>
    <message>
        <source>%1
%2 %3 · %4%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected close: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DealDetailDialog</name>
    <message>
        <source>Activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This deal was deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage: %1 · probability %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unassigned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected close: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost: %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No activity for a while: this deal is rotting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Moved %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the note first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add task…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit deal…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete deal…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · due %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No tasks yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the deal “%1” with its activities? Its tasks are kept, unlinked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A note, or what was said in a call or meeting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected close: %1 (past)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DealEditDialog</name>
    <message>
        <source>New deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit deal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is being sold, to whom?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Probability:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unassigned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected to close on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close date:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes about this deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <comment>a percentage</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <comment>the value field, as a screen reader names it</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <comment>the name field, as a screen reader names it</comment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DealListModel</name>
    <message>
        <source>Deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DealText</name>
    <message>
        <source>Price</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Negotiation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Won</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sales</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EmailPage</name>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;E-mail…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mail server campaigns send e-mail through. The password and the DKIM key are kept in the system keychain; changes take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMTP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. smtp.ornek.com.tr</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STARTTLS (usually port 587)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS from the start (usually port 465)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None (only a server on this machine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Security</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the server&apos;s certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: no sign-in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Örnek Ltd. &lt;bulten@ornek.com.tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DKIM signing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed mail reaches inboxes more often. Publish the public key as a TXT record at &lt;selector&gt;._domainkey.&lt;domain&gt;; leave these empty to send unsigned.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. ornek.com.tr</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. liaison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Private key (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without encryption the password and the mail would cross the network in clear: choose STARTTLS or TLS, or a server on this machine (localhost).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host is a name or an address, without spaces or slashes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the From address as Name &lt;address@domain&gt; or address@domain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the From address the mail is sent from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DKIM needs the domain, the selector and the private key, or none of them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The DKIM key is a private key in PEM form (-----BEGIN PRIVATE KEY-----).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key pasted above is stored when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key is stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key is stored; paste another to replace it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ErrorText</name>
    <message>
        <source>The file is too large: at most %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The channel cannot send now (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Too many messages on this channel: try again in %n second(s)</source>
        <translation>
            <numerusform>Too many messages on this channel: try again in %n second</numerusform>
            <numerusform>Too many messages on this channel: try again in %n seconds</numerusform>
        </translation>
    </message>
    <message>
        <source>The database server cannot be reached at the moment; nothing was changed. Liaison connects again by itself: try again shortly.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FieldErrors</name>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Correct the %n field(s) marked below.</source>
        <translation>
            <numerusform>Correct the %n field marked below.</numerusform>
            <numerusform>Correct the %n fields marked below.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FieldName</name>
    <message>
        <source>First name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Street</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>City</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Country</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lead score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom fields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Currency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected close date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Probability</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closed value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Due date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assignee</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reminder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reminder time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat frequency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat end date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Days until stale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentiment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts to merge</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxComposer</name>
    <message>
        <source>Attach a file (or drop one onto the conversation)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send an approved message template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outside the 24-hour window: send a template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WhatsApp accepts free text only within 24 hours of the customer&apos;s last message; after that it refuses anything but an approved template.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✕</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the attachment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not send the template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach %1: not a readable file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach %1: the file is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is too large to send (%2): at most %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>audio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)
%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value of {{%1}}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{{%1}}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quick-reply buttons:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending files is not available here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending templates is not available here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fill in every placeholder of the template: {{%1}} is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attachment: %1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No approved templates yet: an admin adds them in Settings → Templates.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxContactPanel</name>
    <message>
        <source>Open contact…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open deal…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open task…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversation selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 · %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · due %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No deals.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No open tasks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact details</source>
        <translation></translation>
    </message>
    <message>
        <source>Create contact…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save who this visitor is as a contact; the conversation becomes theirs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create contact for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anonymous web visitor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has not given a name, e-mail address or phone number yet. Create a contact when you know who they are.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxView</name>
    <message>
        <source>Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All channels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WhatsApp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instagram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Telegram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Web widget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assign to me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a reply…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No user account: create one with “liaison user add”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assign to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 unread)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assigned to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assigned to me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assigned agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add tags, comma-separated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quick replies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert a canned answer (or type / in the empty composer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quick replies yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit quick replies…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One answer per line:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n unread</numerusform>
            <numerusform>%n unread</numerusform>
        </translation>
    </message>
    <message>
        <source>[%1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New message from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversations here. Messages from WhatsApp, Telegram, Instagram and the web widget arrive here once a channel is set up in Settings → Channels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Team</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not delivered: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the replies that were not sent again, oldest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take the reply back into the composer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the reply without sending it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right-click to retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversation selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: “%1” (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n replies not sent: “%1” (%2)</source>
        <translation>
            <numerusform>%n reply not sent: “%1” (%2)</numerusform>
            <numerusform>%n replies not sent: “%1” (%2)</numerusform>
        </translation>
    </message>
    <message>
        <source>Not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation></translation>
    </message>
    <message>
        <source>Search by contact name…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversation with a contact named “%1”: change or clear the search.</source>
        <translation></translation>
    </message>
    <message>
        <source>Website visitor %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversation here with these filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set up channels…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the knowledge base has no answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it is not sure of its answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>more than one answer fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the customer asked for a person</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it does not know the customer&apos;s language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hand back to the assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant answers this conversation&apos;s customer again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the suggestion into the reply box, after what you wrote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard the suggestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard the assistant&apos;s suggestion (and take it out of the reply box)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <comment>the assistant&apos;s suggestion</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>handed over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggestion: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant handed this conversation over: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign in to give feedback on the assistant&apos;s answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant handed this conversation over to you: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant handed this conversation over to a person: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant&apos;s suggestion is in the reply box: send it as it is or edited, or discard it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant suggests: “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations whose last message came from the customer and that are not closed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>IncomingWebhookDialog</name>
    <message>
        <source>Add incoming webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create or update a contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create or update a deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receive a message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Require a signature (X-Service-Signature)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>IncomingWebhooksPage</name>
    <message>
        <source>External systems POST {&quot;event&quot;: …, &quot;data&quot;: {…}} to an endpoint&apos;s URL (no API key). Each endpoint runs one action; every call is logged below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signing secret of the incoming webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete incoming webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot;? Calls to its URL will be answered 404.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No incoming webhooks yet. Add one with Add… and give its URL to the service that should create contacts or deals here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JumpBox</name>
    <message>
        <source>Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jump to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of a contact, deal, conversation or task…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a name. Up and Down choose, Enter opens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>due %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing matches “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up and Down choose, Enter opens.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LostDialog</name>
    <message>
        <source>Deal lost: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a reason…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose why the deal was lost.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Liaison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;API keys…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Webhooks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Incoming webhooks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Liaison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Liaison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Liaison %1
A desktop CRM with a local REST API.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API: not started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API: %1 — running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API server stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API server stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incoming webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Web widget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Web &amp;widget…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Getting started…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (admin)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (agent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Change password…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Navigation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everywhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jump to a contact, deal, conversation or task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search in the area in front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New record in the area in front (contact, deal, task; in the Inbox, a reply)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down or Enter (in the search)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move to the results, the first one selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter (in the results)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the selected contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Escape (in the results)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to the search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter (in the quick-add line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 … %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Insert quick reply 1 to 9</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shift+Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New line in the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/ (in an empty reply)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a quick reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jump to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up, Down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open it in its area</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Escape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter (in the list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the selected deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n unread</numerusform>
            <numerusform>%n unread</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n overdue</source>
        <translation>
            <numerusform>%n overdue</numerusform>
            <numerusform>%n overdue</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk full: changes are not being saved; reading still works</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free space on the disk that holds the data folder; saving resumes by itself.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MediaPage</name>
    <message>
        <source>Uploads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep files for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s own address, e.g. https://crm.example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Public base URL of media links:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channel providers download sent files from this address. Changes take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete expired now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No files are stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files: %1, %2 in all; the next one expires %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The public base URL must be an http(s) address such as https://crm.example.com.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. The new settings take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired files deleted: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not delete expired files: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Media</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Media…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelError</name>
    <message>
        <source>%1 %2 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact with e-mail %1 already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact with phone %1 already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A pipeline named %1 already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A segment named %1 already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A stage that still holds deals cannot be removed: move its deals first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A template %1 (%2) already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A user with e-mail %1 already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most %1 webhook subscriptions; delete one first (webhooks/maxSubscriptions)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot change task status from %1 to %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact %1 has no tag %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact %1 is not in segment %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts not found: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation %1 has no tag %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal %1 is already lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal %1 is already won</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 does not exist in this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline %1 holds %2 deal(s): move or delete them first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template %1 (%2) is %3, not approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template %1 (%2) is not an approved template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The default pipeline cannot be deleted: make another pipeline the default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file&apos;s content is not %1%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There must be a default pipeline: make another pipeline the default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: channel must be one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: give either secret or rotateSecret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: status must be one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: unknown event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: unknown message status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: unknown scope %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a body parameter is longer than 1024 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a segment has at most %1 rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a span for %1 must be at most %2d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already exists in this language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already registered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>applies only to weekly recurrence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between needs a value [low, high] with two values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between needs two numbers or two strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be combined with secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be unset directly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot go from %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contacts are added to static segments only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>content does not match its Content-Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>customField key must be 1 to 64 characters of A-Z a-z 0-9 _ . -</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not exist: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>field is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>field must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>groups nest at most %1 levels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not a valid e-mail address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not a valid phone number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not an address field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is required: one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be 1 to 40 lower-case letters, digits or underscores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be AND or OR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a boolean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a non-negative number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a phone number in international form</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a string of at most %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a whole number from 1 to 1000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a whole number of minutes from 0 to 525600 (one year)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be admin or agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an ISO 4217 currency code such as TRY, USD, EUR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of day names (monday … sunday)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of event names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of stage objects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of strings of at most 64 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an integer from 0 to 100</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an integer from 0 to 3650 (0: never)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an international number: + and 7 to 15 digits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object (a rule or a group)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object with enabled and before (minutes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object with frequency, interval, daysOfWeek, endDate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object with name, key, probability, rottenDays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object with rules and logic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object with street, city, country</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at most %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be in international form (+ and digits)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be in international format with a leading +</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of the stages of pipeline %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be open, pending or closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be the sender&apos;s address on the channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have at least %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have at most %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have at most %1 tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have at most 30 open stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must hold at most %1 ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must hold at most %1 components</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name and key must be strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an approved template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of a %1 deal is %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>operator %1 is not valid for %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>operator is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>operator must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameters must be an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repeats the body component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repeats the stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>template %1 (%2) needs %3 body parameters, got %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown field %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown logic %1 (use AND or OR)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown operator %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown scope %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must be a date (YYYY-MM-DD), an ISO 8601 date-time or a span like 30d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must be a non-empty string or a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must be a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must be at most %2 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must not be empty (use isEmpty to find empty fields)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must be between 0 and 100</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for phone must contain digits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for sentiment must be positive, negative or neutral</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value for %1 must not be negative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value is required for operator %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value must be a single value; only between takes [low, high]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (it looks like %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action %1 is not available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The body must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>are required for a dynamic segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is required (event names, or &quot;*&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a language code such as en_US or tr</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number from %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a string, or true to generate one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an absolute https URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of at most %1 buttons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an e-mail address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an http(s) URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be lower-case letters, digits and _</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have %1 to %2 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not carry a user name or password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must use https</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must use https (plain http to loopback needs webhooks/allowInsecureLocal=true)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs at least one open stage besides won and lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or %1 is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused: the receiver&apos;s address is not allowed (webhooks/allowedTargets)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope %1 needs the admin role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scope %1 needs the admin role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last active admin cannot be deactivated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last active admin cannot become an agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %1 is already closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation %1 already has a contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Say who the visitor is: a name, an e-mail address or a phone number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This visitor has already said who they are</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a name, email or phone is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk holding the database is full: this change was not saved. Reading still works; writing works again once space is freed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>field names must be 1 to %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at most %1 bytes as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have at most %1 fields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the value of %1 must be at most %2 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another change saved the same value first: this one was not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channel unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate limited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an E.164 number (+ and 7 to 15 digits)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contact has no widget conversation to send into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no widget conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contact has no phone number to send to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The contact has no %1 conversation to send into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no phone number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no conversation on the channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File too large: at most %1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: name is longer than 200 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at most 200 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the last active admin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment %1 is dynamic: its members follow its filters and cannot be added or removed by hand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bulk send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be objects {type: &quot;quick_reply&quot;, text} with 1 to 25 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>body parameters must be {type: &quot;text&quot;, text}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sub_type must be quick_reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>index must name one of the template&apos;s %1 buttons (from 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a quick_reply button takes one parameter {type: &quot;payload&quot;, payload}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>type must be body or button</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>placeholders must be numbered {{1}} to {{%1}} without gaps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (reopen it to pending first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be in the future</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incoming webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing X-Service-Signature: this webhook requires signed calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X-Service-Signature does not match the body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: event must be a non-empty string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a non-empty string of at most 100 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhook verification failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing X-Hub-Signature-256 header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X-Hub-Signature-256 does not match the body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The webhook body must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This endpoint takes multipart/form-data (Content-Type: multipart/form-data; boundary=…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Malformed multipart body: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing: file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is required (a multipart file part)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send one file per request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>was given more than once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file must be a file part (Content-Disposition with a filename)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1 given more than once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>given more than once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1 must be a text field, not a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1 is not valid UTF-8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be UTF-8 text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1 must be at most %2 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>holds %1 deal(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a string or null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be non-empty strings of at most %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query parameter %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a positive integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD) or an ISO 8601 date-time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a date or date-time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An agent sees only their own API keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only an admin makes API keys for other users</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User no longer exists or was deactivated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail or password is wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too many failed password checks; try again in %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh token is invalid, used or expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be {type: agent|ai|bot|system, name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing: %1 or %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 or %2 is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing: a JSON body is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an ISO 4217 currency code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Media not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1 must be one of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uploads are not configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1 and %2 must be strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing: %1 (or %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template %1 is not an approved template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing: %1 (template %2 exists in %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: bulk sends go to whatsapp, telegram or instagram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>widget visitors cannot get bulk sends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required field missing: either %1 or %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give %1 or %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of 1 to %1 strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a %1 webhook: &quot;object&quot; must be &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The webhook has no &quot;entry&quot; array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every &quot;entry&quot; item must be an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>items must be objects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is required (null unassigns)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a user id or null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing X-Telegram-Bot-Api-Secret-Token header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X-Telegram-Bot-Api-Secret-Token does not match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The webhook body must be a Telegram Update (a JSON object)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a Telegram Update: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid data: %1 must have %2 to 1024 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to 1024 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User no longer exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only an admin changes roles and access</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current password is wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown webhook %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too Many Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authentication required: send Authorization: Bearer &lt;visitor token&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid visitor token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too many open event streams for this visitor (at most %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too many open event streams; try again later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have at most %1 steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be later than %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of weekdays from 1 (Monday) to 7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a date-time with a time zone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A campaign cannot go from %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown merge field: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A campaign can be changed only while DRAFT or SCHEDULED (it is %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A campaign can be deleted only while DRAFT or SCHEDULED (it is %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No one in the audience can be reached on this channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No message could be delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsubscribe entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must have at most %1 items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WhatsApp is not set up (Settings, Channels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail sending is not set up (Settings, E-mail)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused after %1 send errors in a row: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (no encryption) is allowed only for a loopback host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an RSA private key in PEM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give recipientId, or envelopeTo or messageId naming it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Campaign recipient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMS sending is not set up (Settings, SMS)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing X-Twilio-Signature header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X-Twilio-Signature does not match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A status callback needs MessageSid and MessageStatus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a valid URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plain http is allowed only on a loopback address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the scheme must be https</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be https (http only on a loopback address), got &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an account SID (AC and 32 hex digits), got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a phone number (E.164, +905321234567) or an alphanumeric sender id of at most 11 characters, got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an integer from %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of at most %1 texts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file holds no rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file has no column %1 (columns: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unchanged: the same as entry %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a language code such as tr or en</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a tag must be at most %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must hold at most %1 tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must hold at most %1 turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an object {role, content}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be 1 or -1 for THUMBS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be 1 to 5 for SCALE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AI answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The period must end after it starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be after from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The period must be at most %1 days long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at most %1 days before to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is not a CSV text file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be CSV text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This endpoint takes a CSV file: send it as the body with Content-Type text/csv, or as the file part of multipart/form-data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This API key lacks the scope %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be off, suggest or on, got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database %1 could not be copied: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no database to back up at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data directory %1 already holds a database or uploads: restore into an empty data directory, or replace them with --force (they are kept aside)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the database in it fails SQLite&apos;s check (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds a database of a newer Liaison (schema %2, this program knows %3): update Liaison to restore it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it ends early (the file was cut short)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its compressed data is damaged (the file was changed after it was written)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a file in it does not match the checksum the backup recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its list of contents is missing or does not match what it holds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk is full: the backup could not be written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The backup could not be written to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Liaison backup: nothing was restored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The backup %1 is damaged: %2. Nothing was restored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was written by a newer Liaison (backup format %2): update Liaison to restore it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its folder cannot be created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be moved there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact %1 was merged into %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must hold at most %1 contact ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not hold an empty id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not hold the contact kept: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>holds %1 more than once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge %1 was undone already</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A merge can be undone within %1 days only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact %1, which the merge kept, no longer exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact %1 exists already</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unchanged: the same as contact %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fills %1 from two columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fills no name or no e-mail or phone column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a JSON object of column → field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must map each column to a field name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>names %1, a column the file does not have</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>names %1, which is not a field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The mapping must fill a name (name, firstName or lastName) and an e-mail or phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No contact has the e-mail %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>names no contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal named %1 already exists (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unchanged: the same as deal %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task titled %1 already exists (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unchanged: the same as task %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NewApiKeyDialog</name>
    <message>
        <source>API key created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key &quot;%1&quot; was created. Copy it now:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;This key will not be shown again.&lt;/b&gt; Store it somewhere safe; if it is lost, revoke it and create a new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NotificationCenter</name>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n new</numerusform>
            <numerusform>%n new</numerusform>
        </translation>
    </message>
    <message>
        <source>No notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notifications (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark all as read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close (it stays in the notifications list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more waiting</source>
        <translation>
            <numerusform>%n more waiting</numerusform>
            <numerusform>%n more waiting</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PagerBar</name>
    <message>
        <source>Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1–%2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PasswordDialog</name>
    <message>
        <source>Set password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new password for %1. They are signed out everywhere and sign in again with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>at least %n character</numerusform>
            <numerusform>at least %n characters</numerusform>
        </translation>
    </message>
    <message>
        <source>New password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new password for your account (%1). Your other sessions end; this window stays signed in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current password is wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your password was changed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PipelineBoard</name>
    <message>
        <source>Pipeline:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value per stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New deal…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit pipelines…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the value per stage chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value per stage (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 %3 in %n deal(s)</source>
        <translation>
            <numerusform>%1: %2 %3 in %n deal</numerusform>
            <numerusform>%1: %2 %3 in %n deals</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 M</source>
        <comment>millions</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 K</source>
        <comment>thousands</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The currency of the summary and the chart (amounts in different currencies are never added)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %4 · weighted %2 %4 · average %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Open: %n deal(s); in %1 (%2): %3</source>
        <translation>
            <numerusform>Open: %n deal; in %1 (%2): %3</numerusform>
            <numerusform>Open: %n deals; in %1 (%2): %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Open: %n deal(s) · %1</source>
        <translation>
            <numerusform>Open: %n deal · %1</numerusform>
            <numerusform>Open: %n deals · %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Search deals…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the deals assigned to you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the deals as a list you can sort instead of the board</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 most recent of %2 deals; search to find the others.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No deals in this pipeline yet. A deal follows a sale from the first talk to won or lost, with its amount and the next step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No deal in this pipeline matches “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None of this pipeline&apos;s deals is yours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show everyone&apos;s deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No open deals in this pipeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 since %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the deals of this pipeline the search shows as a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export deals to CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deals.csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import deals into this pipeline from a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import deals into %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal with the same name and contact exists in this pipeline:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact&apos;s e-mail</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PipelineEditorDialog</name>
    <message>
        <source>Edit pipelines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New pipeline name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete pipeline…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default pipeline (new deals go here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Probability %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A closing stage: it stays last and cannot be removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the new pipeline&apos;s name first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Negotiation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the pipeline “%1”?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotten after (days)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal that stays this many days in the stage is flagged on its card; 0: never.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RecordPicker</name>
    <message>
        <source>Type a name, e-mail, phone or company</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a deal&apos;s or its contact&apos;s name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleGroupWidget</name>
    <message>
        <source>All of these (AND)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any of these (OR)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A group of rules with its own AND/OR (up to %1 levels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove this group</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleRowWidget</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lead score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentiment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom field…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not have tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has tag (contains)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contains</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lacks tag (not contains)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not contain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has a tag starting with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starts with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after / within the last</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>greater than</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before / older than</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>less than</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>negative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>neutral</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>and</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove this rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>30d or 2025-01-31</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>City</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Country</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SecretDialog</name>
    <message>
        <source>Copy this secret now: it is not shown again. Receivers use it to check the X-Service-Signature header.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SegmentDialog</name>
    <message>
        <source>New segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit segment %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dynamic: members follow the rules (otherwise a fixed list, filled once)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a rule to see how many contacts match.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 contact matches now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 contacts match now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incomplete rule: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fill in each rule to see how many contacts match.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SegmentsPanel</name>
    <message>
        <source>Segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a segment from rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the current members as a new static segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to segment…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the selected contacts to a static segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2, static)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the segment %1? Its contacts are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select one or more contacts in the table first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts are added to static segments only, and there is none yet. Create one with New… and clear &quot;Dynamic&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add 1 contact to:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %1 contacts to:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (static)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (snapshot %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API keys</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsForm</name>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving is not available here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. The changes take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SignInDialog</name>
    <message>
        <source>Sign in to Liaison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not sign in: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail or password is wrong.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SmsPage</name>
    <message>
        <source>The SMS provider campaigns send text messages through (the Twilio Messages API or a compatible one). The auth token is kept in the system keychain; changes take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMS provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Account SID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AC and 32 hex digits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auth token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the stored token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+908501234567 or a sender name such as ORNEK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Campaign pace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep within what the provider allows for the account and the sender; messages over its rate are refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> a second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most per hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> an hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send a test SMS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sends one message with the values above (saved or not) to the number you type.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The token typed above is stored when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No token is stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A token is stored; type another to replace it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>correct the fields marked above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: correct the fields marked above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: fill in the account SID, the auth token and the sender first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the number in international form, such as +905321234567.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing is not available here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Liaison test message: SMS campaigns can be sent from this account.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: no answer from the provider (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent to %1. The provider accepted it as %2 (status: %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a message without a sid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: the provider answered %1 with error %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: the provider answered %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SMS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;SMS…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>Liaison cannot start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Liaison could not open its database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1

Check database/url in the settings file (liaison.ini in the data directory), that the server runs and accepts this computer, and the password in the secret store (secrets/database.password).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You signed out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The account %1 was deactivated; sign in with another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your session was ended (a new password, or a sign-out elsewhere); sign in again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Liaison is already open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Liaison is already open with this data directory (%1). Use the window that is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Liaison does not open a damaged database file:
%1

To restore it, close Liaison and run &quot;liaison restore --force FILE&quot; with a backup (the daily ones are in the data folder&apos;s &quot;backups&quot; folder; the damaged file is kept aside), or put a backup copy of the file in its place (and delete the files ending in -wal and -shm beside it), or save what can still be read with the sqlite3 program&apos;s .recover command. &quot;liaison db check&quot; reports what is damaged.

Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file %1 holds 0 bytes. Liaison does not take it for a new database: your contacts, users and keys would be gone without a word.

Restore the file from a backup copy. If this data folder is new and its first start failed, delete the empty file and start Liaison again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data folder is read-only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is read-only, and Liaison needs to write its database there.

Make it writable for your user, or start Liaison with another data folder (--data-dir).

Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskDialog</name>
    <message>
        <source>New task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What needs doing?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Medium</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>High</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Due</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Due date:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remind me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> minutes before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reminder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not repeat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Daily</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weekly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Monthly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yearly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fri</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sun</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>until</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unassigned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assigned to:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <comment>the title field, as a screen reader names it</comment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskReminderNotifier</name>
    <message>
        <source>%1 — due %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <source>To do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>High</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Medium</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeats %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Due</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assignee</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TasksView</name>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a task and press Enter…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tomorrow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overdue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upcoming</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task done. Next occurrence: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the task “%1” and its notes?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move a done or cancelled task back to To do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Medium</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>High</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anyone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reopened “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task reminder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing due today. Type a task in the line above and press Enter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing coming up. Tasks with a later due date show here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task “%1” deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assigned to me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The filters above (%1) may hide others.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quick add a task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>10 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tomorrow 9:00</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reminded again at %1.</source>
        <translation></translation>
    </message>
    <message>
        <source>Search tasks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the tasks assigned to you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No task here matches “%1”: change or clear the search.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No overdue tasks: everything due is done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No tasks yet. Type one in the line above and press Enter, or add one with its due date, reminder and contact.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New task…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the tasks this tab and the filters show as a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export tasks to CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tasks.csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tasks saved to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import tasks from a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task with the same title, due date and contact exists:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contact&apos;s e-mail</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TemplateDialog</name>
    <message>
        <source>Add template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. order_update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. tr or en_US</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hello {{1}}, your order {{2}} is on its way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quick reply buttons, one a line (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buttons:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TemplatesPage</name>
    <message>
        <source>Templates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Templates…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marketing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Utility</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message templates for WhatsApp: an approved one is needed to write first, or after 24 hours without an answer. {{1}}, {{2}}… in the text are filled in when it is sent. Add them here as they were approved in Meta&apos;s WhatsApp Manager.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the templates: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the template &quot;%1&quot;? The composer stops offering it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No templates yet. Add the ones Meta approved, with Add…, to send them from the Inbox.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo (Ctrl+Z)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UnsubscribeList</name>
    <message>
        <source>No campaign sends to these addresses on their channel: people who unsubscribed, addresses that bounced for good, and those added by hand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search addresses…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add address…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsubscribe list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nobody has unsubscribed yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let campaigns send to this address again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only an administrator removes addresses from the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is on the list: no campaign sends to it by %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to the unsubscribe list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an e-mail address or a phone number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove from the unsubscribe list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let campaigns send to %1 again? Remove it only when the person asked for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was removed from the list.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UserDialog</name>
    <message>
        <source>Add user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>at least %n character</numerusform>
            <numerusform>at least %n characters</numerusform>
        </translation>
    </message>
    <message>
        <source>Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UsersPage</name>
    <message>
        <source>Users</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Users…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The password must have at least %n characters.</source>
        <translation>
            <numerusform>The password must have at least %n character.</numerusform>
            <numerusform>The password must have at least %n characters.</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passwords differ.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent: works with the CRM data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin: also users, keys, webhooks, channels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everyone who signs in to Liaison, in the window or through the API. Agents work with contacts, deals, tasks and the inbox; admins also manage users, API keys, webhooks, channels and the other settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set password…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deactivate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the users: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deactivated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deactivate user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deactivate %1? They are signed out at once, in the window and the API, and their API keys stop working. Their records stay.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WebhookDialog</name>
    <message>
        <source>Edit webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All events, including ones added later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unchanged (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotate: generate a new secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave empty to generate one (at least 16 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at least one event.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WebhookEvent</name>
    <message>
        <source>A customer&apos;s message arrives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A reply leaves for the customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A reply reaches the customer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The customer reads a reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A reply cannot be delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A conversation starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A conversation changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A conversation is assigned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A conversation is closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A contact is deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal moves to another stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal is won</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A deal is deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task is done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task becomes overdue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A task&apos;s reminder is due</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A segment is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A segment changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A segment is deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts join a segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts leave a segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>processed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A campaign starts sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A campaign has been sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A campaign could deliver nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts are imported from a CSV file (one event a batch of 500 rows)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WebhooksPage</name>
    <message>
        <source>Liaison POSTs each event to the subscribed URLs, signed with the subscription&apos;s secret (X-Service-Signature). Failed deliveries are retried; a subscription whose retries all fail is disabled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redeliver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sending…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signing secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the webhook to %1 and its delivery log? Pending deliveries are dropped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No subscriptions yet. Add one with Add… to have Liaison POST its events to your URL.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WelcomeDialog</name>
    <message>
        <source>Welcome to Liaison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>at least %n characters</numerusform>
            <numerusform>at least %n characters</numerusform>
        </translation>
    </message>
    <message>
        <source>Your name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create account</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work without an account for now; this welcome comes back at the next start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create the administrator account. It manages users, API keys, webhooks and channels, and it is the account you sign in with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create an API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your local API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools on this computer (scripts, automations, other apps) reach the same contacts, deals, tasks and messages through the REST API at:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A tool needs an API key. It is shown only once: copy it now and keep it somewhere safe. Settings → API keys lists and revokes keys.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API server is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API server is not running: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try it:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter your name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter an e-mail address such as name@company.com.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The password needs at least %n characters.</source>
        <translation>
            <numerusform>The password needs at least %n characters.</numerusform>
            <numerusform>The password needs at least %n characters.</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passwords differ.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Please check the marked fields.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An account with this e-mail address exists already.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The account could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key could not be made: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A short tour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type in the search box to find anyone by name, e-mail, company or phone, with or without the country code. Choose a contact to see their deals, conversations, tasks, notes and history on the right. Segments on the left keep lists that follow their rules, such as every VIP in İzmir.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each column of the board is a stage. Drag a card to the next stage as the deal moves on; dropping it on Won or Lost asks for the closing value or the reason. The chart above the board adds up the value per stage in one currency at a time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a task in the line at the top, choose Today, Tomorrow or No date, and press Enter. Today, Overdue, Upcoming and All sort what is due. A reminder shows in the window&apos;s corner at its time, and the notices button at the foot of the window lists what you missed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WhatsApp, Telegram, Instagram and web chat conversations in one list, newest first. Open one to answer; Ctrl+1 to Ctrl+9 insert your quick replies, and a conversation you read is marked read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleting a contact or a task, or completing a task, can be taken back for a few seconds with Undo at the foot of the window (Ctrl+Z).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your local API…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings → Contacts changes it later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone numbers written without + are from %1 (+%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WidgetSettingsPage</name>
    <message>
        <source>Put a chat button on your web site: paste this line into its pages, just before &lt;/body&gt;. Visitors&apos; messages arrive in the Inbox on the Web widget channel, and your answers appear in their chat at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://crm.example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embed code:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API server is not running: enter the address where visitors&apos; browsers reach it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This address only works on this computer. For a public site, enter the address visitors&apos; browsers reach (and let the server listen on it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WonDialog</name>
    <message>
        <source>Deal won: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How was it won? (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closed value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark won</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AssistantTestConsole</name>
    <message>
        <source>Ask a question: the entries that would answer it are listed here, best first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask as a customer would, and see what the assistant answers and why. Nothing is stored or sent to anyone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A customer&apos;s question, e.g. How much is shipping?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language of the question: found from its words, or the one chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the assistant (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence: how well the best entry covers the question&apos;s words, weighted by how rare they are. Margin: its lead over the next entry. The assistant answers when both reach their thresholds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reply the customer gets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BM25F: the words&apos; weight in the entry&apos;s question, tags and answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much of the question the entry holds, rare words counting more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Coverage weighted with how much of the entry&apos;s question the words hold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The question could not be asked: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answers with “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hands off to a person: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reply the customer gets while a person takes over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, detected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence %1 (answers from %2) · margin %3 (at least %4) · language: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Words no entry holds: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No entry shares a word with the question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An entry in another language would answer (%1): “%2”, confidence %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AssistantText</name>
    <message>
        <source>FAQ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Article</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snippet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No entry of the knowledge base answers it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The best entry is not close enough</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two entries answer it about as well</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The customer asks for a person</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The knowledge base holds no entry in this language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AssistantView</name>
    <message>
        <source>Knowledge base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The questions customers ask and the answers the assistant gives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask a question and see what the assistant would answer, and why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions the assistant could not answer, grouped: answer them into entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many questions the assistant answered and handed off, and how its answers were rated</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KnowledgeBasePanel</name>
    <message>
        <source>New…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a new entry (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the chosen entry (Enter, or a double-click)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the chosen entry (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add or change entries from a CSV file: columns question, answer, language, and type, tags, id when you have them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the entries the search and filters show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search questions, answers and tags…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the knowledge base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The knowledge base is empty. Write the questions customers ask and their answers, or import them from a CSV file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after the rows being written: those saved until then stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No entry matches the search or the filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the search and filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New entry…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entry saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete “%1”? The assistant stops answering with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entry deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import knowledge from CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is too large to import (at most %2 MB).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping after the rows being written…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing %1: %2 of %3 rows…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import of %1 stopped: %2 new, %3 changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 imported: %2 new, %3 changed, %4 left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export knowledge to CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>knowledge-base.csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln entries saved to %1.</source>
        <translation>
            <numerusform>%Ln entry saved to %1.</numerusform>
            <numerusform>%Ln entries saved to %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>KnowledgeEditor</name>
    <message>
        <source>Edit knowledge entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New knowledge entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAQ: a question and its answer; article: a longer text; snippet: a ready reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language the customer writes in: choose one, or type its code (de, ar, …)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As a customer would ask it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply the customer gets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Separated by commas: shipping, returns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ta&amp;gs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last changed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KnowledgeImportReportDialog</name>
    <message>
        <source>Import of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped at Cancel: the rows read until then are saved, the rest of the file is not.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows left out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the rows left out, with their lines and problems, to fix the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the import report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1-report.csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New entries: %1 · changed: %2 · unchanged: %3 · left out: %4 (of %5 rows read)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AssistantPage</name>
    <message>
        <source>Website</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant answers customers&apos; questions from the knowledge base, and hands to a person what it cannot answer. The language model&apos;s key is kept in the system keychain; changes take effect at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional: an OpenAI-compatible server (llama.cpp&apos;s llama-server, Ollama&apos;s /v1 or a hosted service) that words the answer from the entries the assistant found. Without one, customers get the entry&apos;s answer as written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only if the server asks for one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long one answer of the model may take; past it the entry&apos;s answer is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the model one question with the values above (saved or not): “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the assistant answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer threshold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant answers when its best entry covers the question at least this well (0 to 1; default 0.30); below it, the question goes to a person. Higher: fewer answers, surer ones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Margin threshold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lead the best entry needs over the next one with another answer (0 to 1; default 0.02); closer than this, the question is ambiguous and goes to a person.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off: the assistant stays out of the channel&apos;s conversations. Suggest: its answer waits in the composer for an agent to send, change or discard. On: it answers at once, and hands to a person what it cannot answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The assistant&apos;s name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name customers see on the assistant&apos;s messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Are you open on Saturdays?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What are your opening hours?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>We are open from 9:00 to 18:00 on weekdays and from 10:00 to 16:00 on Saturdays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key typed above is stored when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key is stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key is stored; type another to replace it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>correct the fields marked above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not asked: correct the fields marked above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the model&apos;s base URL first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not asked: no language model is set up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trying the model is not available here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model answered in %1 s: “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model answered in %1 s that the entry does not answer the question: it would hand the question to a person.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer from the model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assista&amp;nt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AssistantStatsPanel</name>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Last %n day</numerusform>
            <numerusform>Last %n days</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Period</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions the assistant was asked in the period</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answered from the knowledge base, without a person</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handed off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handed to a person: why, in the table of reasons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Average confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How well the best entry covered the question, on average over every question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ratings of the answers, and the share that were positive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open suggestions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups of questions nobody answered yet, whatever the period: the Suggestions tab lists them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why questions went to a person</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No question went to a person in this period.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most used entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No question was answered in this period.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Negative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Negative share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entries with the worst feedback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer got negative feedback in this period.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click an entry, or press Enter, to open it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That entry was deleted since.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the figures…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The figures could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to %2, in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>in the last %n day(s)</source>
        <translation>
            <numerusform>in the last %n day</numerusform>
            <numerusform>in the last %n days</numerusform>
        </translation>
    </message>
    <message>
        <source>rate: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>over every question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no questions yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positive: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(deleted entry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for an answer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SuggestionsPanel</name>
    <message>
        <source>Questions the assistant handed to a person because no entry answered them, grouped when customers asked the same in other words. Answer one to teach it to the assistant.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the answer: the question becomes an entry of the knowledge base (Enter, or a double-click)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take it off the list: the same question asked again does not bring it back (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last asked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many times customers asked it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No suggestions: the assistant answered every question customers asked, or they were dealt with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the questions…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The suggestions could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asked once, on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Asked %n time(s), first on %1, last on %2.</source>
        <translation>
            <numerusform>Asked %n time, first on %1, last on %2.</numerusform>
            <numerusform>Asked %n times, first on %1, last on %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>Also asked as: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why it went to a person: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer a suggestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Customers asked this %n time(s). Write the answer the assistant should give: once saved, the entry answers these questions and the suggestion leaves the list.</source>
        <translation>
            <numerusform>Customers asked this once. Write the answer the assistant should give: once saved, the entry answers this question and the suggestion leaves the list.</numerusform>
            <numerusform>Customers asked this %n times. Write the answer the assistant should give: once saved, the entry answers these questions and the suggestion leaves the list.</numerusform>
        </translation>
    </message>
    <message>
        <source>Entry saved: the assistant answers these questions now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss suggestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss “%1”? Its questions leave the list, and the same question asked again does not bring it back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggestion dismissed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggestion “%1” dismissed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The suggestion was not dismissed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message>
        <source>Find duplicates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups of duplicates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Company</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts of the group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge into the kept contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same e-mail: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same phone: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same name and company: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No duplicates found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups of contacts that look like one person: %1 (the newest %2 are listed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups of contacts that look like one person: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e-mail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>phone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name and company</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why they match:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep this contact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge this contact into the kept one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick at least one contact to merge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>notes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deals: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tasks: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>conversations: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>segment memberships: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>campaign records: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is kept; %2 other contact(s) are merged into it and removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing else moves.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Moves to the kept contact: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fields it takes from the others: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merged into %1: %2 contact(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Merge undone: %1 contact(s) are back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for duplicates…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not kept (it has its own): %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacts merged into %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HomeView</name>
    <message>
        <source>Home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pipeline:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages of</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Last %n day</numerusform>
            <numerusform>Last %n days</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Messages of:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks due today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your open tasks due today: click to see them in Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overdue tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your open tasks past their due time: click to see them in Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for an answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations whose last message came from the customer and that are not closed: click to see them in the Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals in the pipeline&apos;s open stages and their value weighted by each stage&apos;s probability, per currency: click to open the board</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open deals by stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No open deals in this pipeline yet: a deal created in Deals shows here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Won, last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals won in the last 30 days, today included: click to list them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Won, last 90 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals won in the last 90 days, today included: click to list them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost, last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals lost in the last 30 days, today included: click to list them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost, last 90 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deals lost in the last 90 days, today included: click to list them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a bar to see the channel&apos;s conversations in the Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No messages in this period: conversations of WhatsApp, Telegram, Instagram and the web widget are counted here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the figures…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The figures could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nobody is signed in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assigned to you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>past their due time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing late</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no open deals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weighted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nobody is waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n minute</numerusform>
            <numerusform>%n minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n hour</numerusform>
            <numerusform>%n hours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n day</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
    <message>
        <source>the longest for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open deals by stage: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n deal(s)</source>
        <translation>
            <numerusform>%n deal</numerusform>
            <numerusform>%n deals</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2%): %3. Click to list them in Deals.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>under a minute</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>%1 cannot be imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is too large to import (at most %2 MB).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 new, %2 updated, %3 skipped, %4 with problems.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows to import, %2 columns. Check the fields of the columns and the preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-report.csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Columns of the file and their fields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Columns of the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma ,</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a new record anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom field “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each row&apos;s outcome (new, updated, skipped and why) as a CSV file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field of column %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import finished: %1 Save the report to see each row&apos;s outcome.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing: %1 of %2 rows (%3 new, %4 updated, %5 skipped, %6 with problems)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No file chosen: a CSV file saved by Excel, LibreOffice or another program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report saved to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the import report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Semicolon ;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Separator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Separator:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip the row (keep the stored record)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after the rows being written: those saved until then stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the import?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped at Cancel after %1 of %2 rows: %3 The rows written until then stay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping after the rows being written…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first %1 rows as they would be imported: no problem found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first %1 rows as they would be imported: %2 would be left out, each with its problem.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first rows as they would be imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rows written until now stay; the rest of the file is not imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>UTF-8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update the stored record with the row&apos;s values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows-1254 (Turkish)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— leave out —</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
