// Seeds a data directory with a small sales team's realistic Turkish data, for looking at the window
// and taking its screenshots (docs/architecture.md, "Look"): one admin (signed in without asking),
// 48 contacts with companies and cities, 14 deals over the default pipeline's stages in TRY, USD and
// EUR, 12 tasks (3 overdue, some today, some later) and 7 conversations on every channel, 3 of them
// unread; the first contact (Ayşe Yılmaz) has notes and calls, meetings and e-mails on her deal.
// With --empty only the admin: every area's empty state.
//   build/bin/demo_seed --data-dir /tmp/demo [--empty]
#include "model/accounts/userrepository.h"
#include "model/contacts/contactrepository.h"
#include "model/core/database.h"
#include "model/deals/dealrepository.h"
#include "model/inbox/conversationrepository.h"
#include "model/tasks/taskrepository.h"
#include "server/api/crypto.h"
#include "tests/support/testsupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOption(
        {QStringLiteral("data-dir"), QStringLiteral("Data directory (made when missing)."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("empty"), QStringLiteral("Only the admin: every area empty.")});
    p.addHelpOption();
    p.process(app);
    const QString dir = p.value(QStringLiteral("data-dir"));
    if (dir.isEmpty()) {
        fprintf(stderr, "demo_seed: needs --data-dir DIR\n");
        return 2;
    }
    QDir().mkpath(dir);
    Database::setPath(QDir(dir).filePath(QStringLiteral("liaison.db")));
    Database::migrate();
    const Store store = testStore();
    const User selin = UserRepository(store).create(QStringLiteral("selin@anadolu-yazilim.com.tr"),
                                                    QStringLiteral("Selin Aksoy"), QStringLiteral("admin"),
                                                    PasswordHasher::hash(QStringLiteral("parola-selin-1"), 10000));
    if (p.isSet(QStringLiteral("empty"))) {
        Database::closeThreadConnection();
        return 0;
    }

    const QStringList first = {"Ayşe",  "Mehmet", "Zeynep", "Burak", "Elif",  "Oğuz",  "Şule",  "İbrahim",
                               "Çağla", "Gökhan", "Ümit",   "Ece",   "Hakan", "Derya", "Kerem", "Nazlı"};
    const QStringList last = {"Yılmaz", "Kaya",   "Demir", "Şahin", "Çelik", "Öztürk",
                              "Aydın",  "Arslan", "Doğan", "Koç",   "Kurt",  "Özdemir"};
    const QStringList companies = {"Anadolu Tekstil A.Ş.", "Ege Lojistik",     "Boğaziçi Gıda",   "Karadeniz Mobilya",
                                   "Marmara Enerji",       "Kapadokya Turizm", "Toros Yapı",      "Akdeniz Tarım Ltd.",
                                   "İstanbul Kuyumculuk",  "Başkent Eczanesi", "Uludağ Otomotiv", "Trakya Seramik"};
    const QStringList cities = {"İstanbul", "İzmir", "Ankara", "Bursa", "Antalya", "Trabzon", "Kayseri", "Konya"};
    ContactRepository contacts(store);
    QStringList contactIds;
    for (int i = 0; i < 48; ++i) {
        const QString f = first.at(i % first.size());
        const QString l = last.at((i * 5 + i / first.size()) % last.size());
        QJsonObject body{{"firstName", f},
                         {"lastName", l},
                         {"email", QStringLiteral("%1.%2@ornek.com.tr")
                                       .arg(f.toLower()
                                                .replace("ş", "s")
                                                .replace("ç", "c")
                                                .replace("ğ", "g")
                                                .replace("ü", "u")
                                                .replace("ö", "o")
                                                .replace("ı", "i")
                                                .replace("i̇", "i"),
                                            l.toLower()
                                                .replace("ş", "s")
                                                .replace("ç", "c")
                                                .replace("ğ", "g")
                                                .replace("ü", "u")
                                                .replace("ö", "o")
                                                .replace("ı", "i"))},
                         {"phone", QStringLiteral("+90 53%1 %2 %3 %4")
                                       .arg(i % 10)
                                       .arg(200 + i * 7 % 700)
                                       .arg(10 + i * 3 % 89, 2, 10, QLatin1Char('0'))
                                       .arg(10 + i * 11 % 89, 2, 10, QLatin1Char('0'))},
                         {"company", companies.at(i % companies.size())},
                         {"address", QJsonObject{{"city", cities.at(i % cities.size())}, {"country", "Türkiye"}}}};
        if (i % 4 == 0)
            body.insert("tags", QJsonArray{QStringLiteral("müşteri")});
        else if (i % 4 == 1)
            body.insert("tags", QJsonArray{QStringLiteral("potansiyel")});
        contactIds << contacts.create(ContactRules::parse(body)).id;
    }

    DealRepository deals(store);
    struct DealSeed
    {
        const char *name;
        double value;
        const char *currency;
        const char *stage;
    };
    const DealSeed dealSeeds[] = {
        {"Kumaş tedariki 2027", 480000, "TRY", "lead"},
        {"Depo otomasyonu", 1250000, "TRY", "lead"},
        {"Soğuk zincir sözleşmesi", 36500, "EUR", "lead"},
        {"Ofis mobilyaları", 215750.5, "TRY", "contact"},
        {"Güneş paneli kurulumu", 890000, "TRY", "contact"},
        {"Otel rezervasyon sistemi", 42000, "USD", "contact"},
        {"Şantiye iş güvenliği eğitimi", 64000, "TRY", "proposal"},
        {"Sera sulama projesi", 320000, "TRY", "proposal"},
        {"Mağaza POS yenilemesi", 18900, "EUR", "proposal"},
        {"Eczane stok yazılımı", 155000, "TRY", "negotiation"},
        {"Filo bakım anlaşması", 2400000, "TRY", "negotiation"},
        {"Seramik ihracatı", 75000, "USD", "won"},
        {"Yıllık destek paketi", 96000, "TRY", "won"},
        {"Web sitesi yenileme", 58000, "TRY", "lost"},
    };
    int d = 0;
    QString firstDeal;
    for (const DealSeed &s : dealSeeds) {
        const Deal made = deals.create(DealRules::parse({{"name", QString::fromUtf8(s.name)},
                                                         {"value", s.value},
                                                         {"currency", s.currency},
                                                         {"stage", s.stage},
                                                         {"contactId", contactIds.at(d * 3 % contactIds.size())},
                                                         {"assignedTo", selin.id}}));
        if (firstDeal.isEmpty())
            firstDeal = made.id;
        ++d;
    }
    // The first contact's history: a few notes and what was done on her deal (the detail pane's
    // Notes and Timeline tabs with more than a handful of rows).
    const char *noteSeeds[] = {
        "İlk görüşme: kumaş numunelerini istediler, 3 renk.",
        "Numuneler kargoya verildi, takip no 4411 2290.",
        "Satın alma müdürü değişti; yeni muhatap Ayşe Hanım.",
        "Fiyatta %5 indirim beklentisi var, yıllık hacim 12.000 metre.",
        "Teklifin revize hali e-postayla gönderildi.",
        "Ödeme vadesi 60 gün isteniyor; finansa soruldu.",
    };
    for (const char *n : noteSeeds)
        contacts.addNote(contactIds.at(0), QString::fromUtf8(n), selin.id);
    const char *activitySeeds[][2] = {
        {"call", "Numune geri bildirimi: renkler beğenildi."},
        {"meeting", "Fabrikada yüz yüze toplantı, üretim hattı gezildi."},
        {"email", "Revize teklif gönderildi."},
        {"call", "Vade konusu konuşuldu, finans onayı bekleniyor."},
        {"note", "Rakip firma teklifi 8% daha düşük."},
    };
    for (const auto &a : activitySeeds)
        deals.addActivity(firstDeal, QString::fromLatin1(a[0]), QString::fromUtf8(a[1]), selin.id);

    TaskRepository tasks(store);
    const QDate today = tasks.today();
    struct TaskSeed
    {
        const char *title;
        int days; // from today
        int hour; // -1: all day
        const char *type;
        const char *priority;
    };
    const TaskSeed taskSeeds[] = {
        {"Teklifi revize edip gönder", -3, 10, "email", "high"},
        {"Ege Lojistik ile sözleşme görüşmesi", -1, 14, "call", "urgent"},
        {"Numune kumaşları kargola", -2, -1, "task", "medium"},
        {"Haftalık satış toplantısı", 0, 9, "meeting", "medium"},
        {"Zeynep Hanım'ı geri ara", 0, 11, "call", "high"},
        {"Fiyat listesini güncelle", 0, 16, "task", "low"},
        {"Demo sonrası takip e-postası", 0, -1, "followup", "medium"},
        {"Fuar standı için teklif al", 1, 10, "task", "medium"},
        {"Kapadokya Turizm sunumu", 2, 15, "meeting", "high"},
        {"Yıllık bakım sözleşmesi yenilemesi", 5, -1, "task", "medium"},
        {"Tahsilat hatırlatması", 7, 10, "call", "low"},
        {"Müşteri memnuniyeti anketi", 14, -1, "email", "low"},
    };
    int t = 0;
    for (const TaskSeed &s : taskSeeds) {
        QJsonObject body{{"title", QString::fromUtf8(s.title)},
                         {"type", s.type},
                         {"priority", s.priority},
                         {"assignedTo", selin.id},
                         {"contactId", contactIds.at(t * 5 % contactIds.size())}};
        const QDate day = today.addDays(s.days);
        body.insert("dueDate", s.hour < 0 ? day.toString(Qt::ISODate)
                                          : TimeUtil::iso(QDateTime(day, QTime(s.hour, 0), tasks.timeZone())));
        tasks.create(TaskRules::parse(body));
        ++t;
    }

    ConversationRepository conversations(store);
    const MessageSender agent{QStringLiteral("agent"), selin.id, selin.name};
    struct ConversationSeed
    {
        int contact;
        const char *channel;
        QStringList lines; // "<" incoming, ">" outgoing
        bool read;
    };
    const QList<ConversationSeed> conversationSeeds = {
        {0,
         "whatsapp",
         {"<Merhaba, kumaş numunelerini aldık.", ">Harika! Beğendiniz mi?", "<Evet, fiyat teklifi alabilir miyiz?"},
         false},
        {3, "widget", {"<Depo otomasyonu için demo talep ediyorum.", "<Bu hafta uygun musunuz?"}, false},
        {6, "telegram", {"<Faturayı tekrar gönderebilir misiniz?"}, false},
        {9, "instagram", {"<Ürün kataloğunuz var mı?", ">Merhaba, katalog ekte. İyi günler!"}, true},
        {12,
         "whatsapp",
         {"<Teslimat tarihi kesinleşti mi?", ">Pazartesi öğleden sonra teslim ediyoruz.", "<Teşekkürler 🙏"},
         true},
        {15, "widget", {"<Destek paketi hakkında bilgi alabilir miyim?", ">Tabii, size bir e-posta gönderdim."}, true},
        {18, "telegram", {"<Toplantıyı perşembeye alabilir miyiz?", ">Olur, perşembe 14:00 uygun."}, true},
    };
    int c = 0;
    for (const ConversationSeed &s : conversationSeeds) {
        const QString contactId = contactIds.at(s.contact);
        const Conversation v =
            conversations.findOrCreate(contactId, QString::fromLatin1(s.channel), QStringLiteral("demo-%1").arg(c++));
        for (const QString &line : s.lines) {
            MessageContent content;
            content.text = line.mid(1);
            if (line.startsWith(QLatin1Char('<')))
                conversations.receive(v.id, content);
            else
                conversations.addOutgoing(v.id, content, agent, QStringLiteral("sent"));
        }
        if (s.read)
            conversations.markRead(v.id);
    }
    Database::closeThreadConnection();
    printf("demo_seed: %s\n", qPrintable(dir));
    return 0;
}
