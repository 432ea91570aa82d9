// The Contacts area driven as a user would: the real MainWindow, ContactsView, dialogs and detail
// pane over the real repositories and a temporary SQLite database, offscreen.

#include "tests/ui/uilayout.h"
#include "tests/ui/uitest.h"

#include "model/accounts/apikeyrepository.h"
#include "model/accounts/userrepository.h"
#include "model/contacts/contact.h"
#include "model/contacts/contactrepository.h"
#include "model/core/csv.h"
#include "model/core/database.h"
#include "model/core/errors.h"
#include "model/core/eventbus.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "tests/ui/composedwindow.h"
#include "ui/contacts/contactdetailpane.h"
#include "ui/contacts/contactdialog.h"
#include "ui/contacts/contactsview.h"
#include "ui/contacts/contacttablemodel.h"
#include "ui/contacts/duplicatesdialog.h"
#include "ui/shell/errortext.h"
#include "ui/shell/importdialog.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/undobar.h"

#include <QComboBox>
#include <QCursor>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QSqlQuery>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>
#include <QThread>
#include <QTimer>
#include <QToolButton>

#include <memory>

using namespace UiTest;

namespace {
// How many of a list's rows show whole in its viewport.
int wholeRows(const QListWidget *list)
{
    int whole = 0;
    for (int i = 0; i < list->count(); ++i)
        whole += list->viewport()->rect().contains(list->visualItemRect(list->item(i)));
    return whole;
}
} // namespace

class TestContactsView final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void showsSeededContacts();
    void searchFiltersAsYouType();
    void openContactShowsTheRecordWhereverItIs();
    void tagFilterFiltersAndFollowsChanges();
    void createThroughDialogStoresContact();
    void badEmailShowsApiMessageAndStaysOpen();
    void aTakenPhoneNamesItsOwnerWithWhatTellsThemApart();
    void editThroughDialogSendsOnlyChangedFields();
    void deleteAsksForConfirmation();
    void changesFromAnotherThreadAppearAndKeepSelection();
    void rowsStayUnderTheMouseWhenContactsArrive();
    void aNewContactOutsideTheSearchLeavesNoOtherRowMarked();
    void anotherUserStartsOnEveryContact();
    void detailPaneAddsAndRemovesTagsAndAddsNotes();
    void detailPaneShowsDealsConversationsAndTimeline();
    void detailPaneGivesHistoryAndNotesTheHeightOnALaptop_data();
    void detailPaneGivesHistoryAndNotesTheHeightOnALaptop();
    void windowFitsA1280WideScreen();
    void statusBarShowsServerStateAndWindowRenders();
    void hundredThousandContactsLoadLazily();
    void thePaneTakesNoRoomUntilAContactIsShownAndColumnsCanBeChosen();
    void headerClicksSortTheRowsAndKeepTheContactShown();
    void findDuplicatesMergesAndUndoes();
    void importDialogMapsPreviewsAndImports();
    void importCanBeCancelledAndExportSavesWhatTheSearchShows();

private:
    void openWindow();
    ContactsView *view() const { return m_window->findChild<ContactsView *>(); }
    ContactTableModel *model() const { return view()->model(); }
    int rowOf(const QString &id) const;
    void clickRow(int row);
    QStringList shownNames() const;
    template<typename T>
    T *child(QObject *parent, const char *name)
    {
        T *found = parent->findChild<T *>(QLatin1String(name));
        if (!found)
            qFatal("no child %s", name);
        return found;
    }

    QTemporaryDir m_dir;
    int m_databases = 0;
    std::unique_ptr<EventBus> m_bus;
    std::unique_ptr<ContactRepository> m_contacts;
    std::unique_ptr<ApiKeyRepository> m_keys;
    std::unique_ptr<MainWindow> m_window;
    QString m_ahmet, m_ayse, m_john;
};

void TestContactsView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void TestContactsView::init()
{
    // A fresh database per test function: no test sees another's contacts.
    Database::closeThreadConnection();
    Database::setPath(m_dir.filePath(QStringLiteral("contacts-%1.db").arg(++m_databases)));
    QVERIFY(Database::migrate() > 0);
    m_bus = std::make_unique<EventBus>();
    m_contacts = std::make_unique<ContactRepository>(Store(*m_bus));
    m_keys = std::make_unique<ApiKeyRepository>(Store(*m_bus));

    m_ahmet = m_contacts
                  ->create(ContactRules::parse({{"firstName", "Ahmet"},
                                                {"lastName", "Yılmaz"},
                                                {"email", "ahmet@example.com"},
                                                {"phone", "+90 532 111 22 33"},
                                                {"company", "Acme"},
                                                {"tags", QJsonArray{"vip", "istanbul"}}}))
                  .id;
    m_ayse = m_contacts
                 ->create(ContactRules::parse({{"firstName", "Ayşe"},
                                               {"lastName", "Demir"},
                                               {"email", "ayse@example.com"},
                                               {"tags", QJsonArray{"istanbul"}}}))
                 .id;
    m_john = m_contacts
                 ->create(ContactRules::parse({{"firstName", "John"},
                                               {"lastName", "Smith"},
                                               {"phone", "+1 415 555 0100"},
                                               {"company", "Initech"},
                                               {"tags", QJsonArray{"lead"}}}))
                 .id;
}

void TestContactsView::cleanup()
{
    m_window.reset();
    m_keys.reset();
    m_contacts.reset();
    m_bus.reset();
    Database::closeThreadConnection();
}

void TestContactsView::openWindow()
{
    m_window = std::make_unique<ComposedWindow>(*m_contacts, *m_keys, Store(*m_bus));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

int TestContactsView::rowOf(const QString &id) const
{
    for (int row = 0; row < model()->rowCount(); ++row) {
        if (model()->idAt(row) == id)
            return row;
    }
    return -1;
}

void TestContactsView::clickRow(int row)
{
    QTableView *table = view()->table();
    const QModelIndex index = model()->index(row, ContactTableModel::NameColumn);
    table->scrollTo(index);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
}

QStringList TestContactsView::shownNames() const
{
    QStringList names;
    for (int row = 0; row < model()->rowCount(); ++row)
        names << model()->index(row, ContactTableModel::NameColumn).data().toString();
    names.sort();
    return names;
}

void TestContactsView::showsSeededContacts()
{
    openWindow();
    QCOMPARE(model()->rowCount(), 3);
    QCOMPARE(shownNames(), QStringList({"Ahmet Yılmaz", "Ayşe Demir", "John Smith"}));
    const int row = rowOf(m_ahmet);
    QCOMPARE(model()->index(row, ContactTableModel::EmailColumn).data().toString(), QString("ahmet@example.com"));
    QCOMPARE(model()->index(row, ContactTableModel::CompanyColumn).data().toString(), QString("Acme"));
    QCOMPARE(model()->index(row, ContactTableModel::TagsColumn).data().toString(), QString("vip, istanbul"));
    QVERIFY(!model()->index(row, ContactTableModel::CreatedColumn).data().toString().isEmpty());
    QCOMPARE(model()->headerData(0, Qt::Horizontal).toString(), QString("Name"));
    QCOMPARE(child<QLabel>(view(), "countLabel")->text(), QString("3 contacts"));
    // Nothing selected yet: nothing to edit or delete.
    QVERIFY(!child<QPushButton>(view(), "editButton")->isEnabled());
    QVERIFY(!child<QPushButton>(view(), "deleteButton")->isEnabled());
}

void TestContactsView::searchFiltersAsYouType()
{
    openWindow();
    QLineEdit *search = view()->searchField();
    QTest::keyClicks(search, "ahm");
    // Debounced: typing alone does not query.
    QCOMPARE(model()->rowCount(), 3);
    QTRY_COMPARE(model()->rowCount(), 1);
    QCOMPARE(model()->idAt(0), m_ahmet);

    search->clear();
    QTRY_COMPARE(model()->rowCount(), 3);
    QTest::keyClicks(search, "initech");
    QTRY_COMPARE(model()->rowCount(), 1);
    QCOMPARE(model()->idAt(0), m_john);
    QTest::keyClicks(search, "xyz");
    QTRY_COMPARE(model()->rowCount(), 0);
    QCOMPARE(child<QLabel>(view(), "countLabel")->text(), QString("0 contacts"));
}

void TestContactsView::openContactShowsTheRecordWhereverItIs()
{
    // As the Inbox's "Open contact" does: the record (detail pane), not an edit form.
    openWindow();
    view()->openContact(m_ahmet);
    QCOMPARE(view()->currentContactId(), m_ahmet);
    QCOMPARE(model()->idAt(view()->table()->selectionModel()->currentIndex().row()), m_ahmet);
    QVERIFY(child<QPushButton>(view(), "editButton")->isEnabled());
    QVERIFY(!modal<ContactDialog>());

    // Filtered out of the table: the pane shows it all the same, no row selected.
    QTest::keyClicks(view()->searchField(), "initech");
    QTRY_COMPARE(model()->rowCount(), 1);
    view()->openContact(m_ahmet);
    QCOMPARE(view()->currentContactId(), m_ahmet);
    QVERIFY(view()->table()->selectionModel()->selectedRows().isEmpty());
    QVERIFY(child<QPushButton>(view(), "editButton")->isEnabled());
    QCOMPARE(view()->searchField()->text(), QString("initech")); // the user's search stays
}

void TestContactsView::tagFilterFiltersAndFollowsChanges()
{
    openWindow();
    QComboBox *tags = view()->tagFilter();
    QCOMPARE(tags->itemText(0), QString("All tags"));
    const int istanbul = tags->findData(QStringLiteral("istanbul"));
    QVERIFY(istanbul > 0);
    QCOMPARE(tags->itemText(istanbul), QString("istanbul (2)"));

    tags->setCurrentIndex(istanbul);
    QCOMPARE(model()->rowCount(), 2);
    QCOMPARE(shownNames(), QStringList({"Ahmet Yılmaz", "Ayşe Demir"}));
    tags->setCurrentIndex(tags->findData(QStringLiteral("lead")));
    QCOMPARE(model()->rowCount(), 1);
    QCOMPARE(model()->idAt(0), m_john);

    // Search and tag combine.
    tags->setCurrentIndex(tags->findData(QStringLiteral("istanbul")));
    QTest::keyClicks(view()->searchField(), "demir");
    QTRY_COMPARE(model()->rowCount(), 1);
    QCOMPARE(model()->idAt(0), m_ayse);
    view()->searchField()->clear();
    QTRY_COMPARE(model()->rowCount(), 2);

    // A tag that appears elsewhere reaches the filter; the chosen filter stays.
    m_contacts->create(ContactRules::parse(
        {{"firstName", "Mehmet"}, {"email", "mehmet@example.com"}, {"tags", QJsonArray{"ankara"}}}));
    QTRY_VERIFY(tags->findData(QStringLiteral("ankara")) > 0);
    QCOMPARE(tags->currentData().toString(), QString("istanbul"));
    QCOMPARE(model()->rowCount(), 2);

    tags->setCurrentIndex(0);
    QCOMPARE(model()->rowCount(), 4);
}

void TestContactsView::createThroughDialogStoresContact()
{
    openWindow();
    click(child<QPushButton>(view(), "newButton"));
    ContactDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = modal<ContactDialog>()));
    QVERIFY(!dialog->isEditing());

    QTest::keyClicks(child<QLineEdit>(dialog, "firstNameEdit"), "Zeynep");
    QTest::keyClicks(child<QLineEdit>(dialog, "lastNameEdit"), "Kaya");
    QTest::keyClicks(child<QLineEdit>(dialog, "emailEdit"), "zeynep@example.com");
    QTest::keyClicks(child<QLineEdit>(dialog, "phoneEdit"), "+90 532 999 88 77");
    QTest::keyClicks(child<QLineEdit>(dialog, "cityEdit"), "Ankara");
    QTest::keyClicks(child<QLineEdit>(dialog, "tagsEdit"), "vip, ankara");
    QSpinBox *score = child<QSpinBox>(dialog, "leadScoreSpin");
    score->selectAll();
    QTest::keyClicks(score, "70");

    const ContactChanges changes = dialog->changes();
    QCOMPARE(changes.firstName, std::optional<QString>("Zeynep"));
    QCOMPARE(changes.address, std::optional<QJsonObject>(QJsonObject({{"city", "Ankara"}})));
    QCOMPARE(changes.tags, std::optional<QStringList>({"vip", "ankara"}));
    QCOMPARE(changes.leadScore, std::optional<int>(70));
    QVERIFY(!changes.company); // empty fields are not set

    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QTRY_VERIFY(!modal<ContactDialog>());

    ContactQuery query;
    query.search = QStringLiteral("zeynep");
    const ContactPage stored = m_contacts->list(query);
    QCOMPARE(stored.items.size(), 1);
    const Contact &c = stored.items.first();
    QCOMPARE(c.lastName, QString("Kaya"));
    QCOMPARE(c.email, QString("zeynep@example.com"));
    QCOMPARE(c.tags, QStringList({"vip", "ankara"}));
    QCOMPARE(c.leadScore, 70);
    QCOMPARE(c.address.value("city").toString(), QString("Ankara"));

    QTRY_COMPARE(model()->rowCount(), 4);
    // The new contact is selected and shown.
    QCOMPARE(view()->currentContactId(), c.id);
    QCOMPARE(child<QLabel>(view()->detailPane(), "contactTitle")->text(), QString("Zeynep Kaya"));
}

void TestContactsView::badEmailShowsApiMessageAndStaysOpen()
{
    // What the API answers for the same body (both go through ContactRules).
    QString expectedDetail, expectedMessage;
    try {
        ContactRules::parse({{"email", "not-an-email"}});
    } catch (const DomainError &e) {
        // The model's refusal, in the window's words (ErrorText): the field reads as its label.
        expectedDetail = ErrorText::details(e).value("email").toString();
        expectedMessage = ErrorText::of(e);
    }
    QVERIFY(!expectedDetail.isEmpty());

    openWindow();
    click(child<QPushButton>(view(), "newButton"));
    ContactDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = modal<ContactDialog>()));
    QTest::keyClicks(child<QLineEdit>(dialog, "firstNameEdit"), "Bad");
    QTest::keyClicks(child<QLineEdit>(dialog, "emailEdit"), "not-an-email");
    click(dialogButton(dialog, QDialogButtonBox::Ok));

    QVERIFY(dialog->isVisible());
    QCOMPARE(modal<ContactDialog>(), dialog);
    QLabel *emailError = child<QLabel>(dialog, "emailError");
    QVERIFY(emailError->isVisible());
    // The model's words, as a sentence under the field (first letter capitalised).
    QCOMPARE(emailError->text(), QLocale().toUpper(expectedDetail.left(1)) + expectedDetail.mid(1));
    QCOMPARE(expectedMessage, QString("Invalid data: E-mail is not a valid e-mail address"));
    // Said once: under the field, with the form label pointing at it.
    QCOMPARE(child<QLabel>(dialog, "formError")->text(), QString("Correct the 1 field(s) marked below."));
    QVERIFY(!child<QLabel>(dialog, "firstNameError")->isVisible());
    QCOMPARE(m_contacts->count({}), 3);
    const QPixmap shot = dialog->grab();
    QVERIFY(!shot.isNull());
    QVERIFY(shot.save(qEnvironmentVariable("LIAISON_SCREENSHOT_DIR", m_dir.path()) + "/contactdialog-error.png"));

    // A missing e-mail and phone: the 422 of the API, shown the same way.
    child<QLineEdit>(dialog, "emailEdit")->clear();
    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QVERIFY(dialog->isVisible());
    QVERIFY(emailError->isVisible());
    QCOMPARE(emailError->text(), QString("Or Phone is required")); // "or phone is required", its field a label

    // A local number while no country is set: the field says where to set it.
    QTest::keyClicks(child<QLineEdit>(dialog, "phoneEdit"), "0532 999 88 77");
    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QVERIFY(dialog->isVisible());
    QLabel *phoneError = child<QLabel>(dialog, "phoneError");
    QVERIFY2(phoneError->text().contains("Settings → Contacts"), qPrintable(phoneError->text()));

    // Corrected (and the country set, as Settings → Contacts does), it saves and closes.
    ContactRules::setDefaultCallingCode("90");
    const auto unset = qScopeGuard([] { ContactRules::setDefaultCallingCode(QString()); });
    QTest::keyClicks(child<QLineEdit>(dialog, "emailEdit"), "bad@example.com");
    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QTRY_VERIFY(!modal<ContactDialog>());
    QCOMPARE(m_contacts->count({}), 4);
    QSqlQuery stored(Database::connection());
    QVERIFY(stored.exec("SELECT phone FROM contacts WHERE email = 'bad@example.com'") && stored.next());
    QCOMPARE(stored.value(0).toString(), QString("+905329998877"));
}

void TestContactsView::editThroughDialogSendsOnlyChangedFields()
{
    openWindow();
    clickRow(rowOf(m_john));
    QCOMPARE(view()->currentContactId(), m_john);
    click(child<QPushButton>(view(), "editButton"));
    ContactDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = modal<ContactDialog>()));
    QVERIFY(dialog->isEditing());
    QLineEdit *company = child<QLineEdit>(dialog, "companyEdit");
    QCOMPARE(company->text(), QString("Initech"));
    QCOMPARE(child<QLineEdit>(dialog, "phoneEdit")->text(), QString("+1 415 555 0100"));
    company->clear();
    QTest::keyClicks(company, "Globex");
    ContactChanges onlyCompany;
    onlyCompany.company = QStringLiteral("Globex");
    QVERIFY(dialog->changes() == onlyCompany);

    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QTRY_VERIFY(!modal<ContactDialog>());
    QCOMPARE(m_contacts->get(m_john).company, QString("Globex"));
    QCOMPARE(m_contacts->get(m_john).phone, QString("+1 415 555 0100"));
    QTRY_COMPARE(model()->index(rowOf(m_john), ContactTableModel::CompanyColumn).data().toString(), QString("Globex"));
    QCOMPARE(child<QLabel>(view()->detailPane(), "companyValue")->text(), QString("Globex"));

    // Clearing a field clears it; a duplicate e-mail is refused (409) and the dialog stays open.
    click(child<QPushButton>(view(), "editButton"));
    QTRY_VERIFY((dialog = modal<ContactDialog>()));
    child<QLineEdit>(dialog, "companyEdit")->clear();
    QTest::keyClicks(child<QLineEdit>(dialog, "emailEdit"), "ahmet@example.com");
    QCOMPARE(dialog->changes().company, std::optional<QString>(QString()));
    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QVERIFY(dialog->isVisible());
    // it names the contact that has the e-mail, never its id
    const QString emailError = child<QLabel>(dialog, "emailError")->text();
    QVERIFY2(emailError.contains("Ahmet Yılmaz"), qPrintable(emailError));
    QVERIFY2(!emailError.contains("contact_"), qPrintable(emailError));
    QVERIFY(child<QLabel>(dialog, "formError")->text().contains("marked below"));
    QCOMPARE(m_contacts->get(m_john).company, QString("Globex"));
    click(dialogButton(dialog, QDialogButtonBox::Cancel));
    QTRY_VERIFY(!modal<ContactDialog>());
}

void TestContactsView::deleteAsksForConfirmation()
{
    openWindow();
    clickRow(rowOf(m_ayse));
    QCOMPARE(view()->currentContactId(), m_ayse);

    click(child<QPushButton>(view(), "deleteButton"));
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = modal<QMessageBox>()));
    QVERIFY(box->text().contains("Ayşe Demir"));
    click(box->button(QMessageBox::No));
    QTRY_VERIFY(!modal<QMessageBox>());
    QVERIFY(m_contacts->find(m_ayse));
    QCOMPARE(model()->rowCount(), 3);

    click(child<QPushButton>(view(), "deleteButton"));
    QTRY_VERIFY((box = modal<QMessageBox>()));
    click(box->button(QMessageBox::Yes));
    // Gone from the list at once, and an Undo is offered; the contact is deleted when it ends.
    QTRY_COMPARE(model()->rowCount(), 2);
    QCOMPARE(rowOf(m_ayse), -1);
    UndoBar *undo = UndoBar::of(view());
    QVERIFY(undo);
    QVERIFY(undo->isVisible());
    QCOMPARE(undo->label()->text(), QString("Ayşe Demir deleted."));
    QVERIFY(m_contacts->find(m_ayse)); // not yet
    // Undo: back in the list, selected, never deleted.
    click(undo->undoButton());
    QVERIFY(!undo->isVisible());
    QTRY_COMPARE(model()->rowCount(), 3);
    QCOMPARE(view()->currentContactId(), m_ayse);
    QVERIFY(m_contacts->find(m_ayse));

    // Deleted again, and this time the offer runs out.
    click(child<QPushButton>(view(), "deleteButton"));
    QTRY_VERIFY((box = modal<QMessageBox>()));
    click(box->button(QMessageBox::Yes));
    QTRY_COMPARE(model()->rowCount(), 2);
    undo->commitPending(); // what the timer does after UndoBar::kSeconds
    QVERIFY(!m_contacts->find(m_ayse));
    QCOMPARE(rowOf(m_ayse), -1);
    QCOMPARE(model()->rowCount(), 2);
    QVERIFY(view()->currentContactId().isEmpty());
    QVERIFY(!child<QPushButton>(view(), "deleteButton")->isEnabled());

    // A delete still waiting when the window goes is carried out.
    clickRow(rowOf(m_john));
    click(child<QPushButton>(view(), "deleteButton"));
    QTRY_VERIFY((box = modal<QMessageBox>()));
    click(box->button(QMessageBox::Yes));
    QTRY_COMPARE(model()->rowCount(), 1);
    QVERIFY(m_contacts->find(m_john));
    m_window.reset();
    QVERIFY(!m_contacts->find(m_john));
}

void TestContactsView::changesFromAnotherThreadAppearAndKeepSelection()
{
    openWindow();
    clickRow(rowOf(m_john));
    QCOMPARE(view()->currentContactId(), m_john);

    // As the API server does: its own thread, its own connection, the shared event bus.
    EventBus *bus = m_bus.get();
    const QString john = m_john;
    QString created;
    std::unique_ptr<QThread> thread(QThread::create([bus, john, &created] {
        ContactRepository repository{Store(*bus)};
        created = repository
                      .create(ContactRules::parse({{"firstName", "Elif"},
                                                   {"lastName", "Şahin"},
                                                   {"email", "elif@example.com"},
                                                   {"tags", QJsonArray{"api"}}}))
                      .id;
        repository.update(john, ContactRules::parse({{"position", "CTO"}}));
        Database::closeThreadConnection();
    }));
    thread->start();
    QVERIFY(thread->wait(30000));
    QVERIFY(!created.isEmpty());

    QTRY_COMPARE(model()->rowCount(), 4);
    QVERIFY(rowOf(created) >= 0);
    QCOMPARE(model()->index(rowOf(created), ContactTableModel::NameColumn).data().toString(), QString("Elif Şahin"));
    QTRY_VERIFY(view()->tagFilter()->findData(QStringLiteral("api")) > 0);
    // The selection follows the contact, not the row number.
    QCOMPARE(view()->currentContactId(), m_john);
    const QModelIndexList selected = view()->table()->selectionModel()->selectedRows();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(model()->idAt(selected.first().row()), m_john);
    QTRY_COMPARE(child<QLabel>(view()->detailPane(), "positionValue")->text(), QString("CTO"));
}

void TestContactsView::detailPaneAddsAndRemovesTagsAndAddsNotes()
{
    openWindow();
    ContactDetailPane *pane = view()->detailPane();
    clickRow(rowOf(m_ahmet));
    QCOMPARE(pane->contactId(), m_ahmet);
    QCOMPARE(child<QTextEdit>(pane, "emailValue")->toPlainText(), QString("ahmet@example.com"));
    QListWidget *tagList = child<QListWidget>(pane, "tagList");
    QCOMPARE(tagList->count(), 2);

    QLineEdit *newTag = child<QLineEdit>(pane, "newTagEdit");
    QTest::keyClicks(newTag, "hot");
    QTest::keyClick(newTag, Qt::Key_Return);
    QCOMPARE(m_contacts->get(m_ahmet).tags, QStringList({"vip", "istanbul", "hot"}));
    QCOMPARE(tagList->count(), 3);
    QVERIFY(newTag->text().isEmpty());
    QTRY_COMPARE(model()->index(rowOf(m_ahmet), ContactTableModel::TagsColumn).data().toString(),
                 QString("vip, istanbul, hot"));

    // Remove "vip": select its chip, press Remove tag.
    QListWidgetItem *vip = tagList->findItems("vip", Qt::MatchExactly).value(0);
    QVERIFY(vip);
    QTest::mouseClick(tagList->viewport(), Qt::LeftButton, {}, tagList->visualItemRect(vip).center());
    click(child<QPushButton>(pane, "removeTagButton"));
    QCOMPARE(m_contacts->get(m_ahmet).tags, QStringList({"istanbul", "hot"}));
    QCOMPARE(tagList->count(), 2);

    QPlainTextEdit *note = child<QPlainTextEdit>(pane, "newNoteEdit");
    QPushButton *addNote = child<QPushButton>(pane, "addNoteButton");
    QVERIFY(!addNote->isEnabled());
    QTest::keyClicks(note, "Called, wants a quote");
    click(addNote);
    QTest::keyClicks(note, "Sent the quote");
    click(addNote);
    const QVector<ContactNote> notes = m_contacts->notes(m_ahmet);
    QCOMPARE(notes.size(), 2);
    QCOMPARE(notes.first().content, QString("Called, wants a quote"));
    QListWidget *noteList = child<QListWidget>(pane, "noteList");
    QCOMPARE(noteList->count(), 2);
    QVERIFY(noteList->item(0)->text().startsWith("Called, wants a quote")); // oldest first
    QVERIFY(noteList->item(1)->text().startsWith("Sent the quote"));
    QVERIFY(note->toPlainText().isEmpty());
    // A note by a user (the signed-in one in the window, or an API call) names them, not their id.
    const User author = UserRepository(Store(*m_bus))
                            .create(QStringLiteral("selin@ornek.com.tr"), QStringLiteral("Selin Aksoy"),
                                    QStringLiteral("agent"), QStringLiteral("x"));
    m_contacts->addNote(m_ahmet, QStringLiteral("Visited the showroom"), author.id);
    QTRY_COMPARE(noteList->count(), 3);
    QVERIFY2(noteList->item(2)->text().endsWith(QStringLiteral(" — Selin Aksoy")),
             qPrintable(noteList->item(2)->text()));
    QVERIFY(!noteList->item(2)->text().contains(author.id));
}

void TestContactsView::detailPaneShowsDealsConversationsAndTimeline()
{
    openWindow();
    DealRepository deals{Store(*m_bus)};
    QString fleetId;
    try {
        fleetId = deals
                      .create(DealRules::parse(
                          {{"name", "Filo kiralama"}, {"value", 120000}, {"currency", "TRY"}, {"contactId", m_ahmet}}))
                      .id;
        deals.create(DealRules::parse({{"name", "Servis sözleşmesi"},
                                       {"value", 4500},
                                       {"currency", "USD"},
                                       {"contactId", m_ahmet},
                                       {"stage", "proposal"}}));
        deals.create(DealRules::parse({{"name", "Someone else's"}, {"value", 1}, {"contactId", m_ayse}}));
        deals.moveStage(fleetId, "negotiation");
        deals.addActivity(fleetId, "call", "Asked for three vans");
        ConversationRepository conversations{Store(*m_bus)};
        const Conversation whatsapp = conversations.findOrCreate(m_ahmet, "whatsapp", "+905321112233", "whatsapp", {});
        MessageContent text;
        text.text = QStringLiteral("Teklif hazır mı?");
        conversations.receive(whatsapp.id, text);
        TaskRepository(Store(*m_bus)).create(TaskRules::parse({{"title", "Send the offer"}, {"contactId", m_ahmet}}));

    } catch (const DomainError &e) {
        QFAIL(qPrintable(e.message() + ' ' + QJsonDocument(e.details()).toJson()));
    }
    ContactDetailPane *pane = view()->detailPane();
    clickRow(rowOf(m_ahmet));
    QTabWidget *tabs = child<QTabWidget>(pane, "detailTabs");
    QListWidget *dealList = child<QListWidget>(pane, "contactDealList");
    QTRY_COMPARE(dealList->count(), 2);
    // The tooltip says it in full; the title is full or short, with or without its count, as the
    // pane's width allows.
    QCOMPARE(tabs->tabToolTip(tabs->indexOf(dealList->parentWidget())), QString("Deals (2)"));
    QVERIFY(QStringList({"Deals (2)", "Deal (2)", "Deal"})
                .contains(tabs->tabText(tabs->indexOf(dealList->parentWidget()))));
    const QString dealsText = dealList->item(0)->text() + '\n' + dealList->item(1)->text();
    QVERIFY2(dealsText.contains("Filo kiralama — Negotiation"), qPrintable(dealsText)); // the stage's name, not its key
    QVERIFY2(dealsText.contains("Servis sözleşmesi — Proposal"), qPrintable(dealsText));
    QVERIFY(!dealsText.contains("Someone else"));

    QListWidget *conversationList = child<QListWidget>(pane, "contactConversationList");
    QCOMPARE(conversationList->count(), 1);
    QVERIFY2(conversationList->item(0)->text().startsWith("WhatsApp — open — 1 unread"),
             qPrintable(conversationList->item(0)->text()));
    QVERIFY(conversationList->item(0)->text().contains("Teklif hazır mı?"));
    QCOMPARE(tabs->tabToolTip(tabs->indexOf(child<QListWidget>(pane, "contactTaskList")->parentWidget())),
             QString("Tasks (1)"));

    // Every tab in sight: short titles on a narrow pane, the full ones where they fit.
    tabs->resize(900, tabs->height());
    const int fullWidth = tabs->tabBar()->sizeHint().width();
    tabs->resize(fullWidth - 1, tabs->height()); // a pixel short
    QVERIFY(tabs->tabBar()->sizeHint().width() < fullWidth);
    QCOMPARE(tabs->tabText(tabs->indexOf(dealList->parentWidget())), QString("Deal (2)"));
    const int briefWidth = tabs->tabBar()->sizeHint().width();
    tabs->resize(briefWidth - 1, tabs->height()); // the short titles' counts go next
    QCOMPARE(tabs->tabText(tabs->indexOf(dealList->parentWidget())), QString("Deal"));
    QCOMPARE(tabs->tabToolTip(tabs->indexOf(dealList->parentWidget())), QString("Deals (2)"));
    tabs->resize(fullWidth, tabs->height());
    QCOMPARE(tabs->tabText(tabs->indexOf(dealList->parentWidget())), QString("Deals (2)"));
    QCOMPARE(tabs->tabText(tabs->indexOf(child<QListWidget>(pane, "contactTaskList")->parentWidget())),
             QString("Tasks (1)"));

    QListWidget *timeline = child<QListWidget>(pane, "timelineList");
    QStringList lines;
    for (int i = 0; i < timeline->count(); ++i)
        lines << timeline->item(i)->text();
    const QString all = lines.join('\n');
    for (const char *expected :
         {"Contact created", "Deal created: Filo kiralama", "Filo kiralama moved from Lead to Negotiation",
          "Call (Filo kiralama): Asked for three vans", "Conversation started on WhatsApp",
          "Message received on WhatsApp: Teklif hazır mı?", "Task created: Send the offer"})
        QVERIFY2(all.contains(QString::fromUtf8(expected)), qPrintable(QString::fromUtf8(expected) + "\n" + all));
    QVERIFY(lines.last().contains("Contact created")); // newest first

    // a change elsewhere shows up without touching the contact
    deals.create(DealRules::parse({{"name", "Third"}, {"value", 10}, {"contactId", m_ahmet}}));
    QTRY_COMPARE(dealList->count(), 3);

    // a double-click on a deal opens it on the board
    QSignalSpy opened(pane, &ContactDetailPane::dealActivated);
    QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {},
                      tabs->tabBar()->tabRect(tabs->indexOf(dealList->parentWidget())).center());
    QCOMPARE(tabs->currentWidget(), dealList->parentWidget());
    QListWidgetItem *first = dealList->item(0);
    QTest::mouseClick(dealList->viewport(), Qt::LeftButton, {}, dealList->visualItemRect(first).center());
    QTest::mouseDClick(dealList->viewport(), Qt::LeftButton, {}, dealList->visualItemRect(first).center());
    if (opened.isEmpty()) // styles that do not activate on a double-click: Enter does
        QTest::keyClick(dealList, Qt::Key_Return);
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.first().first().toString(), first->data(Qt::UserRole).toString());
    auto *dealsHint = dealList->viewport()->findChild<QLabel *>("emptyHint");
    QVERIFY(dealsHint);
    QVERIFY(!dealsHint->isVisibleTo(dealList));

    // A contact with no deals: the tab says so and how one comes, instead of a blank list.
    clickRow(rowOf(m_john));
    QTRY_COMPARE(dealList->count(), 0);
    QVERIFY(dealsHint->isVisibleTo(dealList));
    QVERIFY2(dealsHint->text().startsWith("No deals with this contact"), qPrintable(dealsHint->text()));
    // None counted on the tab itself (five tabs fit a narrow pane); its tooltip still says 0.
    QVERIFY(QStringList({"Deals", "Deal"}).contains(tabs->tabText(tabs->indexOf(dealList->parentWidget()))));
    QCOMPARE(tabs->tabToolTip(tabs->indexOf(dealList->parentWidget())), QString("Deals (0)"));
}

void TestContactsView::aTakenPhoneNamesItsOwnerWithWhatTellsThemApart()
{
    openWindow();
    click(child<QPushButton>(view(), "newButton"));
    ContactDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = modal<ContactDialog>()));
    QTest::keyClicks(child<QLineEdit>(dialog, "firstNameEdit"), "Ahmet");
    child<QLineEdit>(dialog, "lastNameEdit")->setText("Yılmaz");                  // keyClicks takes ASCII only
    QTest::keyClicks(child<QLineEdit>(dialog, "phoneEdit"), "+90 532 111 22 33"); // Ahmet's
    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QVERIFY(modal<ContactDialog>()); // stays open
    // One of perhaps several Ahmet Yılmaz: named with the e-mail and the company, never by id.
    const QString error = child<QLabel>(dialog, "phoneError")->text();
    QCOMPARE(error, QString("Already belongs to Ahmet Yılmaz (ahmet@example.com, Acme)"));
    dialog->reject();
}

void TestContactsView::rowsStayUnderTheMouseWhenContactsArrive()
{
    // The newest first: contacts arriving live sort above the rows on screen.
    for (int i = 0; i < 80; ++i) // more than the table shows: it can scroll
        m_contacts->create(ContactRules::parse(
            {{"firstName", QString("Kişi %1").arg(i)}, {"email", QString("k%1@example.com").arg(i)}}));
    openWindow();
    QTableView *table = view()->table();
    QCOMPARE(model()->rowCount(), 83);
    QCOMPARE(table->verticalScrollBar()->value(), 0); // at the top, where a new row pushes the others down
    // Inside the viewport whatever its width (the offscreen screen is narrow).
    const QPoint at(4, table->visualRect(model()->index(4, ContactTableModel::NameColumn)).center().y());
    QCursor::setPos(table->viewport()->mapToGlobal(at));
    QTest::mouseMove(table->viewport(), at);
    const QString aimed = table->indexAt(at).data(ContactTableModel::IdRole).toString();
    QVERIFY(!aimed.isEmpty());
    for (int i = 0; i < 3; ++i)
        m_contacts->create(ContactRules::parse(
            {{"firstName", QString("Yeni %1").arg(i)}, {"email", QString("y%1@example.com").arg(i)}}));
    QTRY_COMPARE(model()->rowCount(), 86);
    QCOMPARE(table->indexAt(at).data(ContactTableModel::IdRole).toString(), aimed);
}

void TestContactsView::aNewContactOutsideTheSearchLeavesNoOtherRowMarked()
{
    openWindow();
    QTest::keyClicks(child<QLineEdit>(view(), "searchEdit"), "ahmet");
    QTRY_COMPARE(model()->rowCount(), 1);
    clickRow(0);
    QCOMPARE(view()->currentContactId(), m_ahmet);
    click(child<QPushButton>(view(), "newButton"));
    ContactDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = modal<ContactDialog>()));
    QTest::keyClicks(child<QLineEdit>(dialog, "firstNameEdit"), "Deniz");
    QTest::keyClicks(child<QLineEdit>(dialog, "emailEdit"), "deniz@example.com");
    click(dialogButton(dialog, QDialogButtonBox::Ok));
    QTRY_VERIFY(!modal<ContactDialog>());
    // The pane shows Deniz, whom the search does not list; Ahmet's row is no longer marked, so
    // Edit and Delete act on the contact the pane shows.
    QTRY_VERIFY(view()->currentContactId() != m_ahmet);
    QCOMPARE(child<QLabel>(view()->detailPane(), "contactTitle")->text(), QString("Deniz"));
    QVERIFY(!view()->table()->selectionModel()->hasSelection());
}

void TestContactsView::anotherUserStartsOnEveryContact()
{
    openWindow();
    User selin;
    selin.id = "user_selin";
    selin.role = "admin";
    m_window->setSignedInUser(selin);
    QTest::keyClicks(child<QLineEdit>(view(), "searchEdit"), "ahmet");
    QTRY_COMPARE(model()->rowCount(), 1);
    clickRow(0);
    QCOMPARE(view()->currentContactId(), m_ahmet);
    User murat;
    murat.id = "user_murat";
    murat.role = "agent";
    m_window->statusBar()->showMessage("Selin's contact deleted");
    m_window->setSignedInUser(murat);                             // Selin signed out, Murat signed in
    QCOMPARE(m_window->statusBar()->currentMessage(), QString()); // Selin's status line is hers
    QCOMPARE(child<QLineEdit>(view(), "searchEdit")->text(), QString());
    QTRY_COMPARE(model()->rowCount(), 3);
    QVERIFY(view()->currentContactId().isEmpty());
}

void TestContactsView::detailPaneGivesHistoryAndNotesTheHeightOnALaptop_data()
{
    QTest::addColumn<bool>("turkish");
    QTest::newRow("English") << false;
    QTest::newRow("Turkish") << true;
}

void TestContactsView::detailPaneGivesHistoryAndNotesTheHeightOnALaptop()
{
    // On a 1366 × 768 screen (the window: its width, the height left by a panel and the title bar)
    // the contact's fields leave the tabs room for a useful history (8 entries and more) and notes,
    // every tab is in sight (no scroll arrows, no title cut), in English and in Turkish; on a
    // taller window the history grows.
    QFETCH(bool, turkish);
    const UiTest::ScopedTurkish translation(turkish);
    QVERIFY2(translation.ok(), UiTest::ScopedTurkish::missing);
    // A contact a rep has worked with for a while: notes, deals with calls and meetings, a
    // conversation, tasks (counts of two digits in the tabs' titles).
    try {
        for (int i = 1; i <= 12; ++i)
            m_contacts->addNote(m_ahmet, QStringLiteral("Görüşme %1: teklif ve teslim tarihi konuşuldu").arg(i));
        DealRepository deals{Store(*m_bus)};
        TaskRepository tasks{Store(*m_bus)};
        for (int i = 1; i <= 10; ++i) {
            const Deal deal = deals.create(DealRules::parse({{"name", QStringLiteral("Filo kiralama %1").arg(i)},
                                                             {"value", 1000 * i},
                                                             {"currency", "TRY"},
                                                             {"contactId", m_ahmet}}));
            deals.addActivity(deal.id, "call", "Asked for three vans");
            tasks.create(TaskRules::parse({{"title", QStringLiteral("Call back %1").arg(i)}, {"contactId", m_ahmet}}));
        }
        ConversationRepository conversations{Store(*m_bus)};
        const Conversation chat = conversations.findOrCreate(m_ahmet, "whatsapp", "+905321112233", "whatsapp", {});
        MessageContent text;
        text.text = QStringLiteral("Teklif hazır mı?");
        conversations.receive(chat.id, text);
    } catch (const DomainError &e) {
        QFAIL(qPrintable(e.message() + ' ' + QJsonDocument(e.details()).toJson()));
    }

    openWindow();
    m_window->resize(1366, 660);
    ContactDetailPane *pane = view()->detailPane();
    clickRow(rowOf(m_ahmet));
    QTabWidget *tabs = child<QTabWidget>(pane, "detailTabs");
    QListWidget *timeline = child<QListWidget>(pane, "timelineList");
    QListWidget *notes = child<QListWidget>(pane, "noteList");
    QTRY_COMPARE(notes->count(), 12);
    QTRY_VERIFY(timeline->count() > 30);
    QTRY_COMPARE(m_window->height(), 660); // the contact's fields do not make the window taller

    auto tabsInSight = [tabs](const char *where) {
        QTabBar *bar = tabs->tabBar();
        for (const QToolButton *arrow : bar->findChildren<QToolButton *>())
            QVERIFY2(!arrow->isVisible(), where);
        // Every title whole: the bar's tabs at their full size fit its width.
        QVERIFY2(bar->sizeHint().width() <= tabs->width(),
                 qPrintable(QStringLiteral("%1: the tabs need %2 pixels, the pane gives %3 (%4)")
                                .arg(where)
                                .arg(bar->sizeHint().width())
                                .arg(tabs->width())
                                .arg([bar] {
                                    QStringList titles;
                                    for (int i = 0; i < bar->count(); ++i)
                                        titles << bar->tabText(i);
                                    return titles.join(" | ");
                                }())));
        QCOMPARE(bar->tabRect(bar->count() - 1).right() < bar->width(), true);
    };
    tabsInSight("the pane as it opens");
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(wholeRows(timeline) >= 8, qPrintable(QStringLiteral("%1 entries of the history in sight (%2 pixels)")
                                                      .arg(wholeRows(timeline))
                                                      .arg(timeline->viewport()->height())));
    tabs->setCurrentWidget(notes->parentWidget());
    QTRY_VERIFY(notes->isVisible());
    QVERIFY2(
        wholeRows(notes) >= 4,
        qPrintable(
            QStringLiteral("%1 notes in sight (%2 pixels)").arg(wholeRows(notes)).arg(notes->viewport()->height())));
    // The pane at its narrowest beside the table: still every tab.
    auto *splitter = child<QSplitter>(view(), "contactsSplitter");
    splitter->setSizes({4000, 1});
    QTRY_COMPARE(pane->width(), pane->minimumWidth());
    tabsInSight("the pane at its narrowest");
    if (QTest::currentTestFailed())
        return;

    // The fields under Details open and fold (with the keyboard too), and the history keeps room.
    auto *toggle = child<QToolButton>(pane, "contactDetailsToggle");
    QWidget *details = child<QWidget>(pane, "contactDetails");
    toggle->setChecked(false);
    QVERIFY(!details->isVisible());
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    toggle->setFocus(Qt::TabFocusReason);
    QTest::keyClick(toggle, Qt::Key_Space);
    QVERIFY(toggle->isChecked());
    QTRY_VERIFY(details->isVisible());
    QVERIFY(!child<QLabel>(pane, "leadScoreValue")->text().isEmpty());
    tabs->setCurrentWidget(timeline);
    QTRY_VERIFY(timeline->isVisible());
    QVERIFY2(wholeRows(timeline) >= 5, qPrintable(QString::number(wholeRows(timeline))));

    // On a taller screen the history grows with the window.
    toggle->setChecked(false);
    QTRY_VERIFY(!details->isVisible());
    const int laptop = timeline->viewport()->height();
    m_window->resize(1440, 900);
    QTRY_VERIFY2(timeline->viewport()->height() >= laptop + 200,
                 qPrintable(QStringLiteral("%1 → %2").arg(laptop).arg(timeline->viewport()->height())));
}

void TestContactsView::windowFitsA1280WideScreen()
{
    // No area may push the window wider than a 1280-pixel screen (a laptop's), in any language.
    openWindow();
    auto *stack = m_window->findChild<QStackedWidget *>("areaStack");
    QVERIFY(stack);
    for (int i = 0; i < stack->count(); ++i) {
        QWidget *area = stack->widget(i);
        QVERIFY2(
            area->minimumSizeHint().width() <= 1280 - 200,
            qPrintable(
                QStringLiteral("%1: %2").arg(area->metaObject()->className()).arg(area->minimumSizeHint().width())));
    }
    QVERIFY2(m_window->minimumSizeHint().width() <= 1280,
             qPrintable(QString::number(m_window->minimumSizeHint().width())));
    // Nor taller than a laptop's 800 pixels less a panel and the title bar (a text edit's own size
    // hint in the contact pane once asked for 860).
    QVERIFY2(m_window->minimumSizeHint().height() <= 720,
             qPrintable(QString::number(m_window->minimumSizeHint().height())));
}

void TestContactsView::statusBarShowsServerStateAndWindowRenders()
{
    openWindow();
    QLabel *status = child<QLabel>(m_window.get(), "serverStatusLabel");
    m_window->setServerStatus(QStringLiteral("https://127.0.0.1:8443"), true, {});
    QCOMPARE(status->text(), QString("API: https://127.0.0.1:8443 — running"));
    m_window->setServerStatus(QStringLiteral("https://127.0.0.1:8443"), false, QStringLiteral("address in use"));
    QCOMPARE(status->text(), QString("API server stopped: address in use"));
    m_window->setServerStatus(QStringLiteral("https://127.0.0.1:8443"), true, {});

    clickRow(rowOf(m_ahmet));
    m_contacts->addNote(m_ahmet, QStringLiteral("Prefers WhatsApp"));
    QTRY_COMPARE(child<QListWidget>(view()->detailPane(), "noteList")->count(), 1);
    const QPixmap shot = m_window->grab();
    QVERIFY(!shot.isNull());
    QCOMPARE(shot.size(), m_window->size());
    // LIAISON_SCREENSHOT_DIR keeps the picture for a person to look at.
    const QString dir = qEnvironmentVariable("LIAISON_SCREENSHOT_DIR", m_dir.path());
    const QString file = dir + QStringLiteral("/mainwindow.png");
    QVERIFY(shot.save(file));
    QVERIFY(!QImage(file).isNull());
}

void TestContactsView::hundredThousandContactsLoadLazily()
{
    constexpr int Total = 100000;
    constexpr int Chunk = 10000;
    m_contacts->remove(m_ahmet);
    m_contacts->remove(m_ayse);
    m_contacts->remove(m_john);
    for (int start = 0; start < Total; start += Chunk) {
        QVector<QJsonObject> bodies;
        bodies.reserve(Chunk);
        for (int i = start; i < start + Chunk; ++i) {
            QJsonObject body{{"firstName", "Person"},
                             {"lastName", QString::number(i)},
                             {"email", QStringLiteral("person%1@example.org").arg(i)}};
            if (i % 10 == 0)
                body.insert("tags", QJsonArray{"tenth"});
            bodies << body;
        }
        QCOMPARE(m_contacts->insertBulk(bodies), Chunk);
    }

    openWindow();
    ContactTableModel *m = model();
    QCOMPARE(m->rowCount(), Total);
    const int bound = ContactTableModel::BlockSize * ContactTableModel::MaxCachedBlocks;
    QVERIFY(m->loadedRowCount() <= bound);

    // Scroll through the whole table in steps, as a user dragging the scroll bar.
    QTableView *table = view()->table();
    QScrollBar *bar = table->verticalScrollBar();
    for (int step = 0; step <= 20; ++step) {
        bar->setValue(bar->maximum() * step / 20);
        QCoreApplication::processEvents();
        QVERIFY(m->loadedRowCount() <= bound);
    }
    table->scrollToBottom();
    QTRY_VERIFY(table->rowAt(table->viewport()->height() - 2) >= Total - 2);
    QVERIFY(!m->index(Total - 1, ContactTableModel::NameColumn).data().toString().isEmpty());
    QVERIFY(m->loadedRowCount() <= bound);
    QVERIFY(m->blockLoadCount() < Total / ContactTableModel::BlockSize / 4);

    // Selecting the last row and searching still work at this size.
    clickRow(Total - 1);
    QVERIFY(!view()->currentContactId().isEmpty());
    QTest::keyClicks(view()->searchField(), "person42421");
    QTRY_COMPARE(m->rowCount(), 1);
    QCOMPARE(m->index(0, ContactTableModel::NameColumn).data().toString(), QString("Person 42421"));
    view()->searchField()->clear();
    view()->tagFilter()->setCurrentIndex(view()->tagFilter()->findData(QStringLiteral("tenth")));
    QTRY_COMPARE(m->rowCount(), Total / 10);
}

void TestContactsView::thePaneTakesNoRoomUntilAContactIsShownAndColumnsCanBeChosen()
{
    openWindow();
    m_window->resize(1366, 700);
    auto *pane = view()->detailPane();
    QTRY_VERIFY(!pane->isVisible()); // nothing selected: the table has the whole width
    const int tableAlone = view()->table()->width();
    clickRow(0);
    QTRY_VERIFY(pane->isVisible());
    QTRY_VERIFY(view()->table()->width() < tableAlone);
    view()->startOver();
    QTRY_VERIFY(!pane->isVisible());
    QTRY_COMPARE(view()->table()->width(), tableAlone);

    // Right-click on the header: a column can be hidden, the name cannot.
    QHeaderView *header = view()->table()->horizontalHeader();
    QTimer::singleShot(0, this, [] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        QVERIFY(menu);
        const QList<QAction *> actions = menu->actions();
        QCOMPARE(actions.size(), ContactTableModel::ColumnCount);
        QVERIFY(!actions.at(ContactTableModel::NameColumn)->isEnabled());
        actions.at(ContactTableModel::CompanyColumn)->trigger();
        menu->close();
    });
    emit header->customContextMenuRequested(QPoint(10, 5));
    QVERIFY(header->isSectionHidden(ContactTableModel::CompanyColumn));
    QVERIFY(!header->isSectionHidden(ContactTableModel::NameColumn));
}

void TestContactsView::headerClicksSortTheRowsAndKeepTheContactShown()
{
    openWindow();
    QHeaderView *header = view()->table()->horizontalHeader();
    auto order = [this] {
        QStringList names;
        for (int row = 0; row < model()->rowCount(); ++row)
            names << model()->index(row, ContactTableModel::NameColumn).data().toString();
        return names;
    };
    auto clickHeader = [header](int column) {
        const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                        header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    };
    QCOMPARE(order(), (QStringList{"John Smith", "Ayşe Demir", "Ahmet Yılmaz"})); // newest first
    QCOMPARE(header->sortIndicatorSection(), int(ContactTableModel::CreatedColumn));
    // Nobody shown: a click on the header sorts and opens nobody (the table takes the focus then).
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    view()->table()->setFocus(Qt::ActiveWindowFocusReason); // as when a click activates the window
    QVERIFY(view()->detailPane()->contactId().isEmpty());
    clickHeader(ContactTableModel::CreatedColumn);
    QCOMPARE(order(), (QStringList{"Ahmet Yılmaz", "Ayşe Demir", "John Smith"})); // oldest first
    QTest::qWait(50); // negative check: nothing opens in the moment after the click
    QVERIFY(view()->detailPane()->contactId().isEmpty());
    QVERIFY(!view()->detailPane()->isVisible());
    clickHeader(ContactTableModel::CreatedColumn);
    clickRow(rowOf(m_ayse));
    QCOMPARE(view()->detailPane()->contactId(), m_ayse);

    clickHeader(ContactTableModel::NameColumn);
    QCOMPARE(order(), (QStringList{"Ahmet Yılmaz", "Ayşe Demir", "John Smith"}));
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    QCOMPARE(view()->detailPane()->contactId(), m_ayse); // still shown, and selected where she now is
    QCOMPARE(view()->table()->currentIndex().row(), 1);
    clickHeader(ContactTableModel::NameColumn);
    QCOMPARE(order(), (QStringList{"John Smith", "Ayşe Demir", "Ahmet Yılmaz"}));
    clickHeader(ContactTableModel::CompanyColumn); // Acme, Initech, then no company
    QCOMPARE(order(), (QStringList{"Ahmet Yılmaz", "John Smith", "Ayşe Demir"}));
    clickHeader(ContactTableModel::EmailColumn); // cannot be sorted: the order and its arrow stay
    QCOMPARE(order(), (QStringList{"Ahmet Yılmaz", "John Smith", "Ayşe Demir"}));
    QCOMPARE(header->sortIndicatorSection(), int(ContactTableModel::CompanyColumn));
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    // A new filter keeps the order; a contact added later takes its place in it.
    view()->startOver();
    m_contacts->create(ContactRules::parse({{"firstName", "Zafer"}, {"email", "z@example.com"}, {"company", "Beta"}}));
    QTRY_COMPARE(order(), (QStringList{"Ahmet Yılmaz", "Zafer", "John Smith", "Ayşe Demir"}));
}

void TestContactsView::findDuplicatesMergesAndUndoes()
{
    const QString kept = m_contacts
                             ->create(ContactRules::parse({{"firstName", "Işık"},
                                                           {"lastName", "Çelik"},
                                                           {"company", "Anadolu Yazılım"},
                                                           {"email", "isik@anadolu.com.tr"}}))
                             .id;
    const QString other = m_contacts
                              ->create(ContactRules::parse({{"firstName", "ISIK"},
                                                            {"lastName", "CELIK"},
                                                            {"company", "anadolu yazilim"},
                                                            {"phone", "+90 532 999 88 77"}}))
                              .id;
    m_contacts->addNote(other, "Fuarda tanıştık");
    openWindow();
    QTRY_VERIFY(rowOf(other) >= 0);

    click(child<QPushButton>(view(), "duplicatesButton"));
    DuplicatesDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = view()->findChild<DuplicatesDialog *>()) && dialog->isVisible());
    // The groups are looked for in a worker thread: they arrive shortly after.
    QTRY_VERIFY(!dialog->searching());
    QCOMPARE(dialog->groupList()->count(), 1);
    QVERIFY(dialog->groupList()->item(0)->text().contains("ISIK CELIK"));
    QVERIFY(dialog->reasonLabel()->text().contains("Same name and company: Işık Çelik · Anadolu Yazılım"));
    QCOMPARE(dialog->contactTable()->rowCount(), 2);
    // The oldest is kept unless another is chosen; the plan says what moves and what is filled.
    QCOMPARE(dialog->keptId(), kept);
    QCOMPARE(dialog->mergedIds(), QStringList{other});
    QVERIFY(dialog->planLabel()->text().contains("notes: 1"));
    QVERIFY(dialog->planLabel()->text().contains("Phone"));
    dialog->chooseKept(other);
    QCOMPARE(dialog->keptId(), other);
    QCOMPARE(dialog->mergedIds(), QStringList{kept});
    QVERIFY(dialog->planLabel()->text().contains("E-mail"));
    // Unticking the only other contact leaves nothing to merge.
    dialog->contactTable()->item(0, 1)->setCheckState(Qt::Unchecked);
    QVERIFY(!dialog->mergeButton()->isEnabled());
    dialog->chooseKept(kept);
    dialog->contactTable()->item(1, 1)->setCheckState(Qt::Checked);
    QVERIFY(dialog->mergeButton()->isEnabled());

    click(dialog->mergeButton());
    QVERIFY(!m_contacts->find(other));
    QCOMPARE(m_contacts->get(kept).phone, QString("+90 532 999 88 77"));
    QCOMPARE(m_contacts->notes(kept).size(), 1);
    QTRY_VERIFY(!dialog->searching());
    QCOMPARE(dialog->groupList()->count(), 0);
    QVERIFY(dialog->undoButton()->isVisible());
    QVERIFY(dialog->undoLabel()->text().contains("Işık Çelik"));
    QTRY_COMPARE(rowOf(other), -1); // the contacts list follows

    click(dialog->undoButton());
    QVERIFY(m_contacts->find(other));
    QCOMPARE(m_contacts->get(kept).phone, QString());
    QCOMPARE(m_contacts->notes(other).size(), 1);
    QTRY_VERIFY(!dialog->searching());
    QCOMPARE(dialog->groupList()->count(), 1);
    QVERIFY(!dialog->undoButton()->isEnabled());
    QTRY_VERIFY(rowOf(other) >= 0);
    // Nothing of the dialog is cut at a laptop's size.
    dialog->resize(1120, 620);
    QCOMPARE(UiTest::clippedControls(dialog), QStringList());

    // Merged again and the window closed: the main window's undo bar offers the merge back.
    click(dialog->mergeButton());
    QVERIFY(!m_contacts->find(other));
    click(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Close));
    UndoBar *bar = UndoBar::of(view());
    QVERIFY(bar);
    QTRY_VERIFY(bar->isVisible());
    QCOMPARE(bar->label()->text(), QString("Contacts merged into Işık Çelik."));
    click(bar->undoButton());
    QVERIFY(m_contacts->find(other));
    QCOMPARE(m_contacts->notes(other).size(), 1);
}

void TestContactsView::importDialogMapsPreviewsAndImports()
{
    openWindow();
    // What a Turkish Excel saves: Windows-1254 and ";".
    const QString path = m_dir.filePath(QStringLiteral("kisiler.csv"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("Ad Soyad;E-posta;Telefon;\xDE"
               "irket;Sekt\xF6r\r\n"
               "G\xFCl\xFE"
               "en \xC7"
               "elik;gulsen@example.com;+90 532 444 55 66;Do\xF0"
               "a G\xFD"
               "da;G\xFD"
               "da\r\n"
               "Can;can@;;;\r\n"
               "Ahmet Y\xFDlmaz;AHMET@example.com;;Yeni A\xDE;Tekstil\r\n");
    file.close();
    ImportDialog *dialog = view()->importContacts();
    QVERIFY(dialog->isVisible());
    QVERIFY(dialog->openFile(path));
    QCOMPARE(dialog->encodingBox()->currentData().toInt(), int(Csv::Encoding::Windows1254));
    QCOMPARE(dialog->separatorBox()->currentData().toString(), QString(";"));
    // Matched by the Turkish headers; the one no field means is left out until chosen.
    QCOMPARE(dialog->mapping(), (QStringList{"name", "email", "phone", "company", ""}));
    QComboBox *sector = dialog->fieldBox(4);
    sector->setCurrentIndex(sector->findData(QStringLiteral("customFields.Sektör")));
    QVERIFY(sector->currentIndex() > 0);
    emit sector->activated(sector->currentIndex());
    QCOMPARE(dialog->mapping().last(), QString("customFields.Sektör"));
    // The preview reads the rows as they would be imported, with each one's problem.
    QTableWidget *preview = dialog->previewTable();
    QCOMPARE(preview->rowCount(), 3);
    const int problems = 1;
    QCOMPARE(preview->item(0, 2)->text(), QString("Gülşen Çelik"));
    QVERIFY(preview->item(0, problems)->text().isEmpty());
    QVERIFY(preview->item(1, problems)->text().contains("e-mail"));
    QVERIFY(preview->item(2, problems)->text().isEmpty());
    // The encoding changed by hand reads the file again.
    dialog->encodingBox()->setCurrentIndex(dialog->encodingBox()->findData(int(Csv::Encoding::Utf8)));
    emit dialog->encodingBox()->activated(dialog->encodingBox()->currentIndex());
    QVERIFY(preview->item(0, 2)->text().contains(QChar(0xFFFD)));
    dialog->encodingBox()->setCurrentIndex(dialog->encodingBox()->findData(int(Csv::Encoding::Windows1254)));
    emit dialog->encodingBox()->activated(dialog->encodingBox()->currentIndex());
    QCOMPARE(dialog->mapping().last(), QString()); // read again: matched again
    QComboBox *sectorAgain = dialog->fieldBox(4);
    sectorAgain->setCurrentIndex(sectorAgain->findData(QStringLiteral("customFields.Sektör")));

    dialog->duplicatesBox()->setCurrentIndex(dialog->duplicatesBox()->findData(int(CsvImport::Duplicates::Update)));
    QVERIFY(dialog->startImport());
    QTRY_VERIFY(!dialog->isImporting());
    QVERIFY(dialog->report());
    QCOMPARE(dialog->report()->created, 1);
    QCOMPARE(dialog->report()->updated, 1);
    QCOMPARE(dialog->report()->failed, 1);
    QCOMPARE(m_contacts->get(m_ahmet).company, QString("Yeni AŞ"));
    QCOMPARE(m_contacts->get(m_ahmet).customFields.value("Sektör").toString(), QString("Tekstil"));
    QTRY_COMPARE(model()->rowCount(), 4);
    const QString reportPath = m_dir.filePath(QStringLiteral("rapor.csv"));
    QVERIFY(dialog->saveReport(reportPath));
    const Csv::Table report = Csv::read([&] {
        QFile f(reportPath);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }());
    QCOMPARE(report.rows.size(), 3);
    QCOMPARE(report.rows.at(1).mid(0, 2), (QStringList{"3", "failed"}));
    QVERIFY(!report.rows.at(1).at(5).isEmpty());
    dialog->reject();
}

void TestContactsView::importCanBeCancelledAndExportSavesWhatTheSearchShows()
{
    openWindow();
    const QString path = m_dir.filePath(QStringLiteral("many.csv"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("name,email\n");
    for (int i = 0; i < 5 * CsvImport::kBatchRows; ++i)
        file.write(QStringLiteral("Kişi %1,k%1@example.com\n").arg(i).toUtf8());
    file.close();
    ImportDialog *dialog = view()->importContacts();
    QVERIFY(dialog->openFile(path));
    QVERIFY(dialog->startImport());
    QVERIFY(child<QPushButton>(dialog, "cancelImport")->isVisible());
    QVERIFY(!child<QPushButton>(dialog, "closeImport")->isEnabled());
    dialog->cancelImport();
    QTRY_VERIFY(!dialog->isImporting());
    QVERIFY(dialog->report()->cancelled);
    const int created = dialog->report()->created;
    QVERIFY(created > 0 && created < 5 * CsvImport::kBatchRows);
    QCOMPARE(created % CsvImport::kBatchRows, 0); // whole batches
    QTRY_COMPARE(model()->rowCount(), 3 + created);
    QVERIFY(child<QLabel>(dialog, "importStatus")->text().contains("Cancel"));
    dialog->reject();

    QTest::keyClicks(view()->searchField(), "ahmet");
    QTRY_COMPARE(model()->rowCount(), 1);
    const QString exported = m_dir.filePath(QStringLiteral("ahmet.csv"));
    QSignalSpy exportedSpy(view(), &ContactsView::exportFinished);
    QVERIFY(view()->exportTo(exported));
    QVERIFY(!view()->exportTo(exported)); // one at a time
    QTRY_COMPARE(exportedSpy.count(), 1);
    QVERIFY(exportedSpy.first().first().toBool());
    QVERIFY(child<QLabel>(view(), "countLabel")->text().contains("1 contacts saved"));
    QFile out(exported);
    QVERIFY(out.open(QIODevice::ReadOnly));
    const Csv::Table t = Csv::read(out.readAll());
    QCOMPARE(t.rows.size(), 1);
    QCOMPARE(t.rows.first().at(t.header.indexOf("email")), QString("ahmet@example.com"));
}

QTEST_MAIN(TestContactsView)
#include "test_contactsview.moc"
