// The Campaigns area driven as a user would, offscreen: the list's filters and the moves each
// campaign's state allows (Send and Cancel after a question), the editor's save and a refusal kept in
// the form, the audience's live count, the statistics against recipients recorded through the
// repository, the unsubscribe list's Remove for admins only, a drip campaign's contacts and steps
// (in Turkish, paged, filtered, following the bus), and the area whole in Turkish at 1366 × 768.

#include "tests/ui/uilayout.h"
#include "tests/ui/uitest.h"

#include "app/campaignsarea.h"
#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/campaigns/campaignrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/contacts/segmentrepository.h"
#include "model/core/eventbus.h"
#include "model/core/timeutil.h"
#include "tests/support/testsupport.h"
#include "tests/ui/composedwindow.h"
#include "ui/campaigns/campaigncontactspanel.h"
#include "ui/campaigns/campaigneditor.h"
#include "ui/campaigns/campaignstatspanel.h"
#include "ui/campaigns/campaignsview.h"
#include "ui/shell/pagerbar.h"
#include "ui/campaigns/unsubscribelist.h"
#include "ui/shell/theme.h"
#include "ui/shell/uikit.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <memory>

using namespace UiTest;

class TestCampaignsView final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TempDatabase> m_db;
    std::unique_ptr<EventBus> m_bus;
    User m_admin, m_agent;
    Store::Actor m_actor;
    std::unique_ptr<CampaignRepository> m_campaigns;
    QString m_segment;
    QStringList m_contacts;

    Store desk() const { return Store(*m_bus).actingAs(m_actor); }

    QString contact(const QString &first, const QString &last, const QString &email)
    {
        QJsonObject body{{"firstName", first}, {"lastName", last}};
        if (!email.isEmpty())
            body.insert("email", email);
        else
            body.insert("phone", "+905321112233"); // no e-mail: reached by SMS only
        return ContactRepository(desk()).create(ContactRules::parse(body)).id;
    }

    Campaign campaign(const QString &name, const QString &channel = QStringLiteral("email"))
    {
        QJsonObject body{{"name", name},
                         {"type", "BROADCAST"},
                         {"channel", channel},
                         {"htmlContent", "<p>Merhaba {{firstName|dostum}}</p>"},
                         {"broadcastListId", m_segment}};
        if (channel == QLatin1String("email"))
            body.insert("subject", "Kasım fırsatları");
        return m_campaigns->create(CampaignRules::parse(body));
    }

    // A DRIP campaign over the segment, started: step 1 at once, step 2 a day later.
    Campaign drip(const QString &name)
    {
        const QJsonArray steps{
            QJsonObject{{"delayMinutes", 0}, {"subject", "Hoş geldiniz"}, {"htmlContent", "<p>Birinci adım</p>"}},
            QJsonObject{{"delayDays", 1}, {"subject", "İkinci gün"}, {"htmlContent", "<p>İkinci adım</p>"}}};
        const Campaign c = m_campaigns->create(CampaignRules::parse({{"name", name},
                                                                     {"type", "DRIP"},
                                                                     {"channel", "email"},
                                                                     {"broadcastListId", m_segment},
                                                                     {"steps", steps}}));
        return m_campaigns->send(c.id);
    }

    static int rowOf(QTableWidget *table, const QString &id)
    {
        for (int row = 0; row < table->rowCount(); ++row) {
            if (table->item(row, 0)->data(UiKit::IdRole).toString() == id)
                return row;
        }
        return -1;
    }

    static QStringList names(QTableWidget *table)
    {
        QStringList out;
        for (int row = 0; row < table->rowCount(); ++row)
            out << table->item(row, 0)->text();
        out.sort();
        return out;
    }

    static QStringList enabledButtons(CampaignsView &view)
    {
        QStringList out;
        for (const char *key : {"new", "edit", "delete", "send", "schedule", "pause", "resume", "cancel", "retry"}) {
            if (view.button(QLatin1String(key))->isEnabled())
                out << QLatin1String(key);
        }
        return out;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_db = std::make_unique<TempDatabase>();
        m_bus = std::make_unique<EventBus>();
        const Store plain(*m_bus);
        m_admin = UserRepository(plain).create("selin@ornek.com.tr", "Selin Aksoy", "admin", "x");
        m_agent = UserRepository(plain).create("murat@ornek.com.tr", "Murat Çelik", "agent", "x");
        m_actor = {m_admin.id, m_admin.name, m_admin.role};
        m_campaigns = std::make_unique<CampaignRepository>(desk());
        m_contacts = {contact("Ayşe", "Yılmaz", "ayse@ornek.com.tr"), contact("Şükrü", "Demirci", "sukru@ornek.com.tr"),
                      contact("Gülşen", "Kaya", QString())};
        SegmentChanges s;
        s.name = QStringLiteral("Bülten aboneleri");
        s.isDynamic = false;
        SegmentRepository segments(desk());
        m_segment = segments.create(s).id;
        segments.addContacts(m_segment, m_contacts);
    }

    void cleanup()
    {
        m_campaigns.reset();
        m_bus.reset();
        m_db.reset();
    }

    void theListFiltersAndOffersWhatEachStateAllows()
    {
        const Campaign draft = campaign("Kasım bülteni");
        const Campaign sms = campaign("Kampanya SMS duyurusu", "sms");
        const Campaign sending = campaign("Yılbaşı indirimi");
        m_campaigns->send(sending.id);
        CampaignsView view(desk());
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.table()->rowCount(), 3);
        QCOMPARE(view.table()->item(rowOf(view.table(), sending.id), CampaignsView::StatusColumn)->text(),
                 QString("Sending"));
        QCOMPARE(view.table()->item(rowOf(view.table(), sms.id), CampaignsView::ChannelColumn)->text(), QString("SMS"));
        // The frozen audience: two of the three have an e-mail address; nothing sent yet.
        QCOMPARE(view.table()->item(rowOf(view.table(), sending.id), CampaignsView::ProgressColumn)->text(),
                 QString("0 / 3"));

        view.statusFilter()->setCurrentIndex(view.statusFilter()->findData("SENDING"));
        QCOMPARE(names(view.table()), QStringList({"Yılbaşı indirimi"}));
        view.statusFilter()->setCurrentIndex(0);
        view.channelFilter()->setCurrentIndex(view.channelFilter()->findData("sms"));
        QCOMPARE(names(view.table()), QStringList({"Kampanya SMS duyurusu"}));
        view.channelFilter()->setCurrentIndex(0);
        QTest::keyClicks(view.searchField(), "kas");
        QTRY_COMPARE(names(view.table()), QStringList({"Kasım bülteni"}));
        view.searchField()->clear();
        QTRY_COMPARE(view.table()->rowCount(), 3);

        QVERIFY(view.selectCampaign(draft.id));
        QCOMPARE(enabledButtons(view), QStringList({"new", "edit", "delete", "send", "schedule", "cancel"}));
        QVERIFY(view.selectCampaign(sending.id));
        QCOMPARE(enabledButtons(view), QStringList({"new", "edit", "pause", "cancel"}));
        QCOMPARE(view.button("edit")->text(), QString("View…"));

        click(view.button("pause"));
        QCOMPARE(m_campaigns->get(sending.id).status, QString("PAUSED"));
        QCOMPARE(view.currentCampaignId(), sending.id);
        QCOMPARE(enabledButtons(view), QStringList({"new", "edit", "resume", "cancel"}));
        click(view.button("resume"));
        QCOMPARE(m_campaigns->get(sending.id).status, QString("SENDING"));

        // Send asks first, naming how many it reaches; No sends nothing.
        QVERIFY(view.selectCampaign(draft.id));
        click(view.button("send"));
        auto *box = modal<QMessageBox>();
        QVERIFY(box);
        QVERIFY2(box->text().contains("2 contact(s) by E-mail"), qPrintable(box->text()));
        click(box->button(QMessageBox::No));
        QCOMPARE(m_campaigns->get(draft.id).status, QString("DRAFT"));
        click(view.button("send"));
        click(modal<QMessageBox>()->button(QMessageBox::Yes));
        QCOMPARE(m_campaigns->get(draft.id).status, QString("SENDING"));
        QCOMPARE(view.currentCampaignId(), draft.id);
        QVERIFY(!view.button("delete")->isEnabled());

        // Cancel asks too.
        click(view.button("cancel"));
        click(modal<QMessageBox>()->button(QMessageBox::Yes));
        QCOMPARE(m_campaigns->get(draft.id).status, QString("CANCELLED"));
        QCOMPARE(enabledButtons(view), QStringList({"new", "edit"}));

        // A change made elsewhere (the API, a sender) shows by itself; out of sight, when it is shown again.
        m_campaigns->pause(sending.id);
        QTRY_COMPARE(view.table()->item(rowOf(view.table(), sending.id), CampaignsView::StatusColumn)->text(),
                     QString("Paused"));
        view.hide();
        m_campaigns->resume(sending.id);
        QTRY_VERIFY(view.isStale());
        QCOMPARE(view.table()->item(rowOf(view.table(), sending.id), CampaignsView::StatusColumn)->text(),
                 QString("Paused"));
        view.show();
        QCOMPARE(view.table()->item(rowOf(view.table(), sending.id), CampaignsView::StatusColumn)->text(),
                 QString("Sending"));
    }

    void scheduleUnscheduleAndDelete()
    {
        const Campaign draft = campaign("Bayram tebriki");
        CampaignsView view(desk());
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.selectCampaign(draft.id));

        // A time already past is refused in the dialog, which stays open.
        click(view.button("schedule"));
        auto *dialog = modal<QDialog>();
        QVERIFY(dialog);
        QCOMPARE(dialog->objectName(), QString("scheduleDialog"));
        auto *when = dialog->findChild<QDateTimeEdit *>("scheduleDateTime");
        when->setDateTime(QDateTime::currentDateTime().addDays(-1));
        click(qobject_cast<QPushButton *>(dialogButton(dialog, QDialogButtonBox::Ok)));
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>("errorLabel")->isVisible());
        QCOMPARE(m_campaigns->get(draft.id).status, QString("DRAFT"));
        const QDateTime at = QDateTime::currentDateTime().addDays(3);
        when->setDateTime(at);
        click(qobject_cast<QPushButton *>(dialogButton(dialog, QDialogButtonBox::Ok)));
        QCOMPARE(m_campaigns->get(draft.id).status, QString("SCHEDULED"));
        QCOMPARE(TimeUtil::parse(m_campaigns->get(draft.id).scheduledAt)->toSecsSinceEpoch() / 60,
                 at.toSecsSinceEpoch() / 60);
        QCOMPARE(view.table()->item(rowOf(view.table(), draft.id), CampaignsView::StatusColumn)->text(),
                 QString("Scheduled"));
        QVERIFY(view.button("send")->isEnabled());

        // Unscheduled: a draft again.
        click(view.button("schedule"));
        dialog = modal<QDialog>();
        QVERIFY(dialog);
        click(dialog->findChild<QPushButton *>("unscheduleButton"));
        QCOMPARE(m_campaigns->get(draft.id).status, QString("DRAFT"));
        QVERIFY(m_campaigns->get(draft.id).scheduledAt.isEmpty());

        // Delete asks first.
        click(view.button("delete"));
        click(modal<QMessageBox>()->button(QMessageBox::Yes));
        QVERIFY(!m_campaigns->find(draft.id));
        QCOMPARE(view.table()->rowCount(), 0);
        QVERIFY(!view.button("delete")->isEnabled());
    }

    void theEditorSavesAndKeepsWhatWasTypedWhenRefused()
    {
        CampaignsView view(desk());
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.newCampaign();
        auto *editor = modal<CampaignEditor>();
        QVERIFY(editor);
        QTest::keyClicks(editor->nameEdit(), "Aralik bulteni");
        editor->audienceBox()->setCurrentIndex(editor->audienceBox()->findData(m_segment));
        QTest::keyClicks(editor->subjectEdit(), "Merhaba {{unvan}}");
        editor->bodyEdit()->setPlainText("<p>Merhaba {{firstName}}, {{company|firmaniz}} icin.</p>");
        click(editor->saveButton());
        // Refused: an unknown merge field. The dialog stays with what was typed.
        QVERIFY(editor->isVisible());
        QVERIFY(editor->formError()->isVisible());
        QVERIFY2(editor->formError()->text().contains("unvan"), qPrintable(editor->formError()->text()));
        QCOMPARE(editor->nameEdit()->text(), QString("Aralik bulteni"));
        QCOMPARE(editor->subjectEdit()->text(), QString("Merhaba {{unvan}}"));
        QVERIFY(m_campaigns->list({}).items.isEmpty());

        // The preview fills the fields from a contact of the audience who has an e-mail address
        // (the newest, Gülşen, has none).
        editor->updateNow();
        QVERIFY2(editor->preview()->toPlainText().contains("Merhaba Şükrü, firmaniz icin."),
                 qPrintable(editor->preview()->toPlainText()));
        // A merge field inserted from the list goes in at the cursor.
        editor->subjectEdit()->clear();
        QTest::keyClicks(editor->subjectEdit(), "Merhaba ");
        editor->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(editor));
        editor->subjectEdit()->setFocus();
        QTRY_VERIFY(editor->subjectEdit()->hasFocus());
        editor->mergeFieldList()->setCurrentItem(
            editor->mergeFieldList()->findItems("{{firstName}}", Qt::MatchExactly).value(0));
        editor->insertMergeField();
        QCOMPARE(editor->subjectEdit()->text(), QString("Merhaba {{firstName}}"));

        editor->scheduleCheck()->setChecked(true);
        click(editor->saveButton());
        QVERIFY(!editor->isVisible());
        const QVector<Campaign> saved = m_campaigns->list({}).items;
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved.first().name, QString("Aralik bulteni"));
        QCOMPARE(saved.first().subject, QString("Merhaba {{firstName}}"));
        QCOMPARE(saved.first().broadcastListId, m_segment);
        QCOMPARE(saved.first().status, QString("SCHEDULED"));
        QTRY_COMPARE(view.currentCampaignId(), saved.first().id);

        // Edited again: a drip campaign of two steps.
        view.editCampaign();
        editor = modal<CampaignEditor>();
        QVERIFY(editor);
        QCOMPARE(editor->nameEdit()->text(), QString("Aralik bulteni"));
        editor->scheduleCheck()->setChecked(false);
        editor->typeBox()->setCurrentIndex(editor->typeBox()->findData("DRIP"));
        QCOMPARE(editor->stepsTable()->rowCount(), 1);
        editor->addStep();
        // Weekdays from 9:00 to 18:00 only.
        editor->windowFromBox()->setValue(9);
        editor->windowToBox()->setValue(18);
        for (int day = 1; day <= 5; ++day)
            editor->windowDay(day)->setChecked(true);
        QTest::keyClicks(editor->subjectEdit(), "Ikinci adim");
        editor->bodyEdit()->setPlainText("<p>Tekrar merhaba</p>");
        click(editor->saveButton());
        QVERIFY(!editor->isVisible());
        const Campaign drip = m_campaigns->get(saved.first().id);
        QCOMPARE(drip.type, QString("DRIP"));
        QCOMPARE(drip.steps.size(), 2);
        QCOMPARE(drip.steps.at(0).subject, QString("Merhaba {{firstName}}"));
        QCOMPARE(drip.steps.at(1).subject, QString("Ikinci adim"));
        QCOMPARE(drip.steps.at(1).delayMinutes, 24 * 60);
        QCOMPARE(drip.window.fromHour, 9);
        QCOMPARE(drip.window.toHour, 18);
        QCOMPARE(drip.window.days, QList<int>({1, 2, 3, 4, 5}));
    }

    void theAudienceIsCountedAsItWouldBeSent()
    {
        SuppressionRepository(desk()).add("email", "SUKRU@ornek.com.tr", "manual");
        CampaignEditor editor(*m_campaigns, desk());
        editor.show();
        QCOMPARE(editor.audienceCount()->text(), QString("Choose who receives it: a segment of contacts."));
        editor.audienceBox()->setCurrentIndex(editor.audienceBox()->findData(m_segment));
        QTRY_COMPARE(editor.audienceCount()->text(),
                     QString("1 contact(s) would receive it (of 3 in the segment; left out: 1 no address, 1 "
                             "unsubscribed)."));
        editor.channelBox()->setCurrentIndex(editor.channelBox()->findData("sms"));
        QTRY_COMPARE(editor.audienceCount()->text(),
                     QString("1 contact(s) would receive it (of 3 in the segment; left out: 2 no address)."));
        QVERIFY(!editor.subjectEdit()->isVisible()); // an SMS has no subject
    }

    // A WhatsApp campaign: its template and the values of the template's parameters, each with
    // merge fields, previewed for a contact and saved in order.
    void aWhatsAppCampaignFillsItsTemplatesValues()
    {
        CampaignEditor editor(*m_campaigns, desk());
        editor.show();
        QVERIFY(!editor.templateParamsEdit()->isVisible());
        editor.nameEdit()->setText("Kasım WhatsApp");
        editor.channelBox()->setCurrentIndex(editor.channelBox()->findData("whatsapp"));
        QVERIFY(editor.templateParamsEdit()->isVisible());
        QVERIFY(!editor.subjectEdit()->isVisible());
        editor.audienceBox()->setCurrentIndex(editor.audienceBox()->findData(m_segment));
        editor.templateEdit()->setText("kisisel");
        editor.templateParamsEdit()->setText("{{firstName|Müşterimiz}};  Kasım ; ");
        QTRY_VERIFY2(editor.findChild<QTextEdit *>("campaignPreview")->toPlainText().contains("{{2}} = “Kasım”"),
                     qPrintable(editor.findChild<QTextEdit *>("campaignPreview")->toPlainText()));
        QVERIFY(editor.save());
        const Campaign saved = m_campaigns->get(editor.campaignId());
        QCOMPARE(saved.channel, QString("whatsapp"));
        QCOMPARE(saved.templateParams, (QStringList{"{{firstName|Müşterimiz}}", "Kasım"}));
    }

    void theStatisticsAreTheRecipientsSignals()
    {
        // Five with an address, one without.
        QStringList more;
        for (int i = 0; i < 3; ++i)
            more << contact(QStringLiteral("Kişi%1").arg(i), "Test", QStringLiteral("kisi%1@ornek.com.tr").arg(i));
        SegmentRepository(desk()).addContacts(m_segment, more);
        const Campaign c = campaign("Ocak bülteni");
        m_campaigns->send(c.id);
        const QVector<CampaignSend> claimed = m_campaigns->claim("email", 10, 60);
        QCOMPARE(claimed.size(), 5);
        QVector<CampaignSendResult> results;
        for (int i = 0; i < claimed.size(); ++i) {
            CampaignSendResult r;
            r.recipientId = claimed.at(i).recipientId;
            r.kind = i == 3   ? CampaignSendResult::HardBounce
                     : i == 4 ? CampaignSendResult::Failed
                              : CampaignSendResult::Sent;
            r.detail = i == 3   ? QStringLiteral("550 mailbox unknown")
                       : i == 4 ? QStringLiteral("bad address")
                                : QString();
            results << r;
        }
        m_campaigns->record(results, {60});
        QVERIFY(m_campaigns->recordOpen(claimed.at(0).recipientId, false, "Mozilla/5.0"));
        QVERIFY(m_campaigns->recordOpen(claimed.at(1).recipientId, true, "GoogleImageProxy"));
        QVERIFY(m_campaigns->recordClick(claimed.at(2).recipientId, "https://ornek.com.tr/", "Mozilla/5.0"));
        QVERIFY(m_campaigns->unsubscribe(claimed.at(0).recipientId, "link"));
        const CampaignStats s = m_campaigns->stats(c.id);
        QCOMPARE(s.total, 6);
        QCOMPARE(s.sent, 3);
        QCOMPARE(s.opened, 2); // an open and a click; the proxy's open apart
        QCOMPARE(s.clicked, 1);

        CampaignsView view(desk());
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.selectCampaign(c.id));
        CampaignStatsPanel *stats = view.statsPanel();
        const QLocale locale;
        const QHash<QString, qint64> expected{
            {"total", s.total},     {"sent", s.sent},       {"delivered", s.delivered},
            {"opened", s.opened},   {"clicked", s.clicked}, {"bounced", s.bounced},
            {"skipped", s.skipped}, {"failed", s.failed},   {"unsubscribed", s.unsubscribed},
            {"pending", s.pending}};
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QCOMPARE(stats->figure(it.key())->text(), locale.toString(it.value()));
        QCOMPARE(stats->figure("bounced")->text(), QString("1"));
        QCOMPARE(stats->figure("failed")->text(), QString("1"));
        QCOMPARE(stats->figure("skipped")->text(), QString("1"));
        QCOMPARE(stats->figure("unsubscribed")->text(), QString("1"));
        QCOMPARE(stats->figure("openRate")->text(), QString("%1 %").arg(locale.toString(s.openRate(), 'f', 1)));
        QCOMPARE(stats->figure("clickRate")->text(), QString("%1 %").arg(locale.toString(s.clickRate(), 'f', 1)));
        QCOMPARE(stats->funnel(), QList<qint64>({s.total, s.sent, s.delivered, s.opened, s.clicked}));
        QVERIFY(stats->chart()->chart());
        // The list's row: sent of the audience and the rates.
        const int row = rowOf(view.table(), c.id);
        QCOMPARE(view.table()->item(row, CampaignsView::ProgressColumn)->text(), QString("3 / 6"));
        QCOMPARE(view.table()->item(row, CampaignsView::OpenColumn)->text(),
                 QString("%1 %").arg(locale.toString(s.openRate(), 'f', 1)));
        // Retry failed: the failed one waits again.
        QVERIFY(view.button("retry")->isEnabled());

        // The recipients, filtered.
        CampaignRecipientsPanel *recipients = view.recipientsPanel();
        QCOMPARE(recipients->table()->rowCount(), 6);
        recipients->statusFilter()->setCurrentIndex(recipients->statusFilter()->findData("bounced"));
        QCOMPARE(recipients->table()->rowCount(), 1);
        QCOMPARE(recipients->table()->item(0, CampaignRecipientsPanel::ErrorColumn)->text(),
                 QString("550 mailbox unknown"));
        // A broadcast's rows have no step.
        QVERIFY(recipients->table()->isColumnHidden(CampaignRecipientsPanel::StepColumn));
        recipients->statusFilter()->setCurrentIndex(0);
        QTest::keyClicks(recipients->searchField(), "ayse");
        QTRY_COMPARE(recipients->table()->rowCount(), 1);
        QCOMPARE(recipients->table()->item(0, CampaignRecipientsPanel::AddressColumn)->text(),
                 QString("ayse@ornek.com.tr"));
        QVERIFY(!recipients->table()->item(0, CampaignRecipientsPanel::OpenedColumn)->text().isEmpty());

        click(view.button("retry"));
        QVERIFY2(view.statusLabel()->text().contains("1 recipient"), qPrintable(view.statusLabel()->text()));
        QTRY_COMPARE(stats->figure("failed")->text(), QString("0"));
    }

    // Issue 31: how a drip is going, in Turkish: each contact's state (why it left), its next step
    // and when, where it came from, the steps it was sent; filtered, paged, and following the bus.
    void aDripShowsItsContactsAndTheirSteps()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        // Ayşe walks; Şükrü is on the unsubscribe list; Gülşen has no e-mail address; 50 more walk.
        SuppressionRepository(desk()).add("email", "sukru@ornek.com.tr", "manual");
        QStringList more;
        for (int i = 0; i < 50; ++i)
            more << contact(QStringLiteral("Üye%1").arg(i), "Test", QStringLiteral("uye%1@ornek.com.tr").arg(i));
        SegmentRepository(desk()).addContacts(m_segment, more);
        const Campaign c = drip("Hoş geldin serisi");
        QCOMPARE(m_campaigns->advanceDrips(500, QTimeZone::utc()), 51);
        const Campaign broadcast = campaign("Kasım bülteni");

        CampaignsView view(desk());
        view.resize(1366, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // The list: running, not sending; its progress is its contacts.
        const int row = rowOf(view.table(), c.id);
        QVERIFY(row >= 0);
        QCOMPARE(view.table()->item(row, CampaignsView::StatusColumn)->text(), QString("Çalışıyor"));
        QCOMPARE(view.table()->item(row, CampaignsView::ProgressColumn)->text(), QString("51 etkin / 53 kişi"));
        QVERIFY(view.table()->item(row, CampaignsView::ProgressColumn)->toolTip().contains("2 ayrıldı"));

        // A broadcast has no contacts tab.
        QTabWidget *tabs = view.detailTabs();
        CampaignContactsPanel *contacts = view.contactsPanel();
        QVERIFY(view.selectCampaign(broadcast.id));
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(contacts)));
        QVERIFY(view.selectCampaign(c.id));
        QVERIFY(tabs->isTabVisible(tabs->indexOf(contacts)));
        QCOMPARE(tabs->tabText(tabs->indexOf(contacts)), QString("Kişiler"));
        tabs->setCurrentWidget(contacts);
        QVERIFY(view.statsPanel()->findChild<QLabel *>("statsReason")->text().contains("53 girdi"));
        // Its figures count messages, one per contact and step, not an audience.
        QCOMPARE(view.statsPanel()->figure("total")->accessibleName(), QString("Mesajlar"));
        QCOMPARE(view.statsPanel()->figure("total")->text(), QString("51"));

        // Its contacts, 50 a page, the newest first.
        QCOMPARE(contacts->total(), 53);
        QCOMPARE(contacts->table()->rowCount(), 50);
        QCOMPARE(contacts->summary()->text(), QString("Kişiler: 53 girdi, 51 etkin, 0 tamamladı, 2 ayrıldı"));
        QVERIFY(contacts->pager()->nextButton()->isEnabled());
        QCOMPARE(contacts->pager()->pageLabel()->text(), QString("1–50 / 53"));
        click(contacts->pager()->nextButton());
        QCOMPARE(contacts->table()->rowCount(), 3);
        QVERIFY(!contacts->pager()->nextButton()->isEnabled());
        click(contacts->pager()->previousButton());
        QCOMPARE(contacts->table()->rowCount(), 50);

        auto cell = [contacts](const QString &contactId, int column) {
            const int r = rowOf(contacts->table(), contactId);
            return r < 0 ? QStringLiteral("(no row)") : contacts->table()->item(r, column)->text();
        };
        // Searched by name, without case or accents: "uye1" finds Üye1 and Üye10 to Üye19.
        contacts->searchField()->setText("uye1");
        QTRY_COMPARE(contacts->total(), 11);
        QCOMPARE(contacts->pager()->page(), 1);
        contacts->searchField()->setText("ayşe yıl");
        QTRY_COMPARE(contacts->total(), 1);
        contacts->searchField()->clear();
        QTRY_COMPARE(contacts->total(), 53);

        // Filtered to those who left: why each left, no next step.
        contacts->statusFilter()->setCurrentIndex(contacts->statusFilter()->findData("exited"));
        QCOMPARE(contacts->table()->rowCount(), 2);
        QCOMPARE(cell(m_contacts.at(1), CampaignContactsPanel::StatusColumn), QString("Ayrıldı (abonelikten çıkmış)"));
        QCOMPARE(cell(m_contacts.at(2), CampaignContactsPanel::StatusColumn), QString("Ayrıldı (adresi yok)"));
        QCOMPARE(cell(m_contacts.at(1), CampaignContactsPanel::NextStepColumn), QString());
        QCOMPARE(cell(m_contacts.at(1), CampaignContactsPanel::StepsColumn), QString("0 / 2"));
        // The active ones: step 2 next, due a day after step 1 went, from the audience, 1 of 2 sent.
        contacts->statusFilter()->setCurrentIndex(contacts->statusFilter()->findData("active"));
        QCOMPARE(contacts->total(), 51);
        QCOMPARE(contacts->pager()->page(), 1); // a new filter: its first page
        click(contacts->pager()->nextButton()); // Ayşe entered first: the last of the newest first
        const QString ayse = m_contacts.at(0);
        QCOMPARE(cell(ayse, CampaignContactsPanel::NameColumn), QString("Ayşe Yılmaz"));
        QCOMPARE(cell(ayse, CampaignContactsPanel::StatusColumn), QString("Etkin"));
        QVERIFY2(cell(ayse, CampaignContactsPanel::NextStepColumn).startsWith("Adım 2 · "),
                 qPrintable(cell(ayse, CampaignContactsPanel::NextStepColumn)));
        QCOMPARE(cell(ayse, CampaignContactsPanel::SourceColumn), QString("Kitle"));
        QCOMPARE(cell(ayse, CampaignContactsPanel::StepsColumn), QString("1 / 2"));
        // The chosen contact's steps: step 1, waiting for the sender, then sent and opened.
        contacts->table()->selectRow(rowOf(contacts->table(), ayse));
        QTableWidget *steps = contacts->stepsTable();
        QCOMPARE(steps->rowCount(), 1);
        QCOMPARE(steps->item(0, CampaignContactsPanel::StepNumberColumn)->text(), QString("Adım 1"));
        QCOMPARE(steps->item(0, CampaignContactsPanel::StepNumberColumn)->toolTip(), QString("Hoş geldiniz"));
        QCOMPARE(steps->item(0, CampaignContactsPanel::StepStatusColumn)->text(), QString("Bekliyor"));
        QString ayseStep;
        for (const CampaignSend &send : m_campaigns->claim("email", 100, 60)) {
            if (send.address == QLatin1String("ayse@ornek.com.tr"))
                ayseStep = send.recipientId;
        }
        QVERIFY(!ayseStep.isEmpty());
        m_campaigns->record({{ayseStep, CampaignSendResult::Sent, 250, {}, "<m1@x>"}}, {});
        QVERIFY(m_campaigns->recordOpen(ayseStep, false, "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"));
        // The bus: refreshed by itself, the contact still chosen.
        QTRY_COMPARE(steps->item(0, CampaignContactsPanel::StepStatusColumn)->text(), QString("Gönderildi"));
        QVERIFY(!steps->item(0, CampaignContactsPanel::StepSentColumn)->text().isEmpty());
        QVERIFY(!steps->item(0, CampaignContactsPanel::StepOpenedColumn)->text().isEmpty());
        QCOMPARE(steps->item(0, CampaignContactsPanel::StepClickedColumn)->text(), QString());
        // A contact joining the segment enters (the sender's audience check) and is shown.
        const QString late = contact("Deniz", "Geç", "deniz@ornek.com.tr");
        SegmentRepository(desk()).addContacts(m_segment, {late});
        QCOMPARE(m_campaigns->enrolNewMembers(), 1);
        QTRY_COMPARE(contacts->total(), 52);
        QCOMPARE(contacts->pager()->page(), 2);
        click(contacts->pager()->previousButton());
        QVERIFY(cell(late, CampaignContactsPanel::NextStepColumn).startsWith("Adım 1 · "));
        QCOMPARE(cell(late, CampaignContactsPanel::StepsColumn), QString("0 / 2"));

        // The recipients show each row's step.
        tabs->setCurrentWidget(view.recipientsPanel());
        CampaignRecipientsPanel *recipients = view.recipientsPanel();
        QVERIFY(!recipients->table()->isColumnHidden(CampaignRecipientsPanel::StepColumn));
        QCOMPARE(recipients->total(), 51);
        QTest::keyClicks(recipients->searchField(), "ayse");
        QTRY_COMPARE(recipients->table()->rowCount(), 1);
        QCOMPARE(recipients->table()->item(0, CampaignRecipientsPanel::StepColumn)->text(), QString("Adım 1"));

        // A triggered campaign: its contacts come from its event, said so.
        const QJsonArray oneStep{
            QJsonObject{{"delayMinutes", 0}, {"subject", "Merhaba"}, {"htmlContent", "<p>Selam</p>"}}};
        const Campaign triggered =
            m_campaigns->send(m_campaigns
                                  ->create(CampaignRules::parse({{"name", "Yeni kişiye merhaba"},
                                                                 {"type", "TRIGGERED"},
                                                                 {"channel", "email"},
                                                                 {"trigger", QJsonObject{{"event", "contact.created"}}},
                                                                 {"steps", oneStep}}))
                                  .id);
        QCOMPARE(m_campaigns->processTriggers(), 0); // the first read: the events so far start nothing
        const QString newcomer = contact("Cem", "Yeni", "cem@ornek.com.tr");
        QCOMPARE(m_campaigns->processTriggers(), 1);
        auto progressOf = [&view](const QString &id) {
            const int r = rowOf(view.table(), id);
            return r < 0 ? QString() : view.table()->item(r, CampaignsView::ProgressColumn)->text();
        };
        QTRY_COMPARE(progressOf(triggered.id), QString("1 etkin / 1 kişi"));
        QVERIFY(view.selectCampaign(triggered.id));
        tabs->setCurrentWidget(contacts);
        QCOMPARE(contacts->total(), 1);
        QCOMPARE(cell(newcomer, CampaignContactsPanel::SourceColumn), QString("Yeni kişi"));
        QVERIFY(contacts->table()
                    ->item(0, CampaignContactsPanel::SourceColumn)
                    ->toolTip()
                    .startsWith("Bir kişi oluşturulduğunda"));
        QVERIFY(view.selectCampaign(c.id));

        // Cancelled: everyone still in it leaves, and says why.
        m_campaigns->cancel(c.id);
        tabs->setCurrentWidget(contacts);
        contacts->statusFilter()->setCurrentIndex(contacts->statusFilter()->findData("exited"));
        QTRY_COMPARE(contacts->total(), 54);
        QCOMPARE(cell(late, CampaignContactsPanel::StatusColumn), QString("Ayrıldı (iptal edildi)"));
    }

    void onlyAnAdminRemovesFromTheUnsubscribeList()
    {
        CampaignsView view(desk());
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.tabs()->setCurrentIndex(1);
        UnsubscribeList *list = view.unsubscribeList();
        QVERIFY(list->add("email", "Eski.Musteri@Ornek.com.tr"));
        QCOMPARE(list->table()->rowCount(), 1);
        QCOMPARE(list->table()->item(0, 1)->text(), QString("eski.musteri@ornek.com.tr"));
        QCOMPARE(list->table()->item(0, 2)->text(), QString("Added by hand"));
        // A bad address is refused and said so.
        QVERIFY(!list->add("sms", "not a phone"));
        QVERIFY(!list->statusLabel()->text().isEmpty());

        list->table()->selectRow(0);
        QVERIFY(list->removeButton()->isEnabled());
        // An agent adds, but does not remove.
        m_actor = {m_agent.id, m_agent.name, m_agent.role};
        list->updateActions();
        QVERIFY(!list->removeButton()->isEnabled());
        QVERIFY(list->addButton()->isEnabled());
        list->removeSelected(); // the key or a stale click: nothing
        QVERIFY(!modal<QMessageBox>());
        QVERIFY(list->add("email", "murat.ekledi@ornek.com.tr"));
        QCOMPARE(list->table()->rowCount(), 2);

        m_actor = {m_admin.id, m_admin.name, m_admin.role};
        list->updateActions();
        QVERIFY(list->removeButton()->isEnabled());
        click(list->removeButton());
        click(modal<QMessageBox>()->button(QMessageBox::Yes));
        QCOMPARE(SuppressionRepository(desk()).list({}, {}, 1, 10).total, 1);
        QCOMPARE(list->table()->rowCount(), 1);
    }

    void nothingIsCutInTurkishAt1366()
    {
        const ScopedTurkish translation;
        QVERIFY2(translation.ok(), ScopedTurkish::missing);
        const QFont font = QApplication::font();
        Theme::instance().setChoice(Theme::Choice::Light);
        QFont body = font;
        body.setPointSizeF(qMax(body.pointSizeF(), UiKit::kMinBodyPoints));
        QApplication::setFont(body);
        const auto restoreFont = qScopeGuard([font] { QApplication::setFont(font); });
        const Campaign c = campaign("Kasım bülteni");
        m_campaigns->send(c.id);
        campaign("Yılbaşı indirimi");
        const Campaign welcome = drip("Hoş geldin serisi");
        m_campaigns->advanceDrips(100, QTimeZone::utc());
        ContactRepository contacts(desk());
        ApiKeyRepository keys(desk());
        ComposedWindow window(contacts, keys, desk());
        CampaignsView *view = addCampaignsArea(window, desk());
        window.showArea(view);
        window.resize(1366, 690);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(view->selectCampaign(c.id));
        auto whole = [](QWidget *root, const QString &where) {
            QCoreApplication::processEvents();
            const QStringList cut = clippedControls(root);
            QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1 (%2 pixels wide): %3")
                                                   .arg(where)
                                                   .arg(root->width())
                                                   .arg(cut.join(QStringLiteral("; ")))));
        };
        QCOMPARE(view->button("send")->text(), QString("Şimdi gönder"));
        whole(view, "the list and the statistics");
        view->detailTabs()->setCurrentWidget(view->recipientsPanel());
        whole(view, "the recipients");
        QVERIFY(view->selectCampaign(welcome.id));
        view->detailTabs()->setCurrentWidget(view->contactsPanel());
        whole(view, "a drip's contacts");
        view->detailTabs()->setCurrentWidget(view->recipientsPanel());
        whole(view, "a drip's recipients");
        view->tabs()->setCurrentIndex(1);
        whole(view, "the unsubscribe list");
        view->tabs()->setCurrentIndex(0);

        view->newCampaign();
        auto *editor = modal<CampaignEditor>();
        QVERIFY(editor);
        QVERIFY(QTest::qWaitForWindowExposed(editor));
        // Its size on a 1366 × 768 screen (the offscreen screen is 800 × 600).
        editor->resize(qMin(1120, 1366 - 40), qMin(720, 768 - 60));
        QVERIFY2(editor->width() <= 1366 && editor->height() <= 768,
                 qPrintable(QStringLiteral("%1×%2").arg(editor->width()).arg(editor->height())));
        whole(editor, "the editor");
        editor->typeBox()->setCurrentIndex(editor->typeBox()->findData("TRIGGERED"));
        whole(editor, "the editor of a triggered campaign");
        editor->reject();
    }
};

QTEST_MAIN(TestCampaignsView)
#include "test_campaignsview.moc"
