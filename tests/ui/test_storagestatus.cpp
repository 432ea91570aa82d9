// A full disk shows in the window's status bar, in the window's language: a write refused for want
// of space (from the window or from the API's thread) shows "Disk full", reading goes on, and the
// first write saved once space is freed hides it; a transaction that changed nothing does not.

#include "model/core/errors.h"
#include "model/core/storagehealth.h"
#include "tests/support/fulldisk.h"
#include "tests/ui/uilayout.h"
#include "tests/ui/windowfixture.h"

#include <QLabel>
#include <QStatusBar>
#include <QTest>

#include <thread>

class TestStorageStatus final : public QObject
{
    Q_OBJECT

private slots:
    void showsAFullDiskUntilAWriteIsSaved()
    {
        WindowFixture fixture;
        StorageHealth::reset();
        std::unique_ptr<MainWindow> w;
        {
            const UiTest::ScopedTurkish turkish; // the window is built in Turkish
            QVERIFY2(turkish.ok(), UiTest::ScopedTurkish::missing);
            w = fixture.window();
        }
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto *label = w->statusBar()->findChild<QLabel *>("storageFullLabel");
        QVERIFY(label);
        QVERIFY(!label->isVisible());
        QCOMPARE(label->text(), QStringLiteral("Disk dolu: değişiklikler kaydedilmiyor; okuma çalışıyor"));

        const Contact kept =
            fixture.contacts.create(ContactRules::parse({{"firstName", "Ayşe"}, {"email", "a@ornek.com.tr"}}));
        QVERIFY(FullDisk::fill());
        const QJsonObject big{
            {"firstName", "Barış"}, {"email", "b@ornek.com.tr"}, {"customFields", FullDisk::bigCustomFields()}};
        try {
            fixture.contacts.create(ContactRules::parse(big));
            QFAIL("the write was not refused");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::StorageFull);
        }
        QVERIFY(label->isVisible());
        QVERIFY(fixture.contacts.find(kept.id)); // reading goes on
        {
            Transaction nothing;
            nothing.commit();
        }
        QVERIFY(label->isVisible());

        // A refusal on another thread (the API's) reaches the window through its event loop.
        FullDisk::free();
        fixture.contacts.create(ContactRules::parse({{"firstName", "Cem"}, {"email", "c@ornek.com.tr"}}));
        QVERIFY(!label->isVisible());
        std::thread other([] {
            try {
                StorageHealth::refuseWrite(QStringLiteral("a test's other thread"));
            } catch (const DomainError &) {
            }
        });
        other.join();
        QTRY_VERIFY_WITH_TIMEOUT(label->isVisible(), 5000);

        // Space is freed: the next saved write hides it.
        fixture.contacts.create(ContactRules::parse(big));
        QVERIFY(!label->isVisible());
    }
};

QTEST_MAIN(TestStorageStatus)
#include "test_storagestatus.moc"
