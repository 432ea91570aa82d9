#include "app/assistantsettings.h"

#include "app/appsettings.h"
#include "app/secrets/secretstore.h"
#include "messaging/assistant/assistantautoreply.h"
#include "messaging/assistant/assistantsettingsrules.h"
#include "messaging/assistant/languagemodelclient.h"
#include "ui/shell/errortext.h"
#include "ui/shell/mainwindow.h"

#include <QPointer>
#include <QThread>

AssistantPage::Values AssistantSettings::values(const AppSettings &settings, SecretStore &secrets)
{
    AssistantPage::Values out;
    for (const QString &key : AssistantSettingsRules::keys()) {
        QString fallback;
        if (const std::optional<AssistantSettingsRules::NumberRange> range = AssistantSettingsRules::numberRange(key))
            fallback = QString::number(range->fallback);
        else if (key.startsWith(AssistantSettingsRules::autoReplyKey({})))
            fallback = QStringLiteral("off");
        else if (key == AssistantSettingsRules::nameKey())
            fallback = AutoReplyConfig().name;
        out.insert(key, settings.value(key, fallback).toString().trimmed());
    }
    const QString secret = AssistantSettingsRules::apiKeySecret();
    out.insert(secret, QString::fromUtf8(secrets.read(secret).value_or(QByteArray())).trimmed());
    return out;
}

FieldProblems AssistantSettings::check(const AssistantPage::Values &values)
{
    return AssistantSettingsRules::problems(values);
}

bool AssistantSettings::save(const AssistantPage::Values &values, const QString &iniFile, SecretStore &secrets,
                             QString *error)
{
    const FieldProblems problems = check(values);
    if (!problems.isEmpty()) {
        *error = QStringLiteral("%1 %2").arg(problems.firstKey(), ErrorText::text(problems.first()));
        return false;
    }
    return AppSettings::writeIniAndSecret(iniFile, values, AssistantSettingsRules::apiKeySecret(), secrets, error);
}

void AssistantSettings::tryModel(const AssistantPage::Values &values, const AssistantPage::TestQuestion &question,
                                 QObject *context, AssistantPage::TestDone done)
{
    LanguageModelConfig config;
    config.baseUrl = values.value(AssistantSettingsRules::llmBaseUrlKey()).trimmed();
    while (config.baseUrl.endsWith(QLatin1Char('/')))
        config.baseUrl.chop(1);
    config.model = values.value(AssistantSettingsRules::llmModelKey()).trimmed();
    config.apiKey = values.value(AssistantSettingsRules::apiKeySecret()).trimmed();
    config.timeoutSeconds = values.value(AssistantSettingsRules::llmTimeoutKey()).toInt();
    if (config.timeoutSeconds <= 0)
        config.timeoutSeconds =
            int(AssistantSettingsRules::numberRange(AssistantSettingsRules::llmTimeoutKey())->fallback);
    PhrasingRequest request;
    request.question = question.question;
    request.language = question.language;
    KnowledgeEntry entry;
    entry.id = QStringLiteral("kn_sample");
    entry.language = question.language;
    entry.question = question.entryQuestion;
    entry.answer = question.entryAnswer;
    request.entries = {entry};
    // The client lives and answers in its own thread (the window never waits on the network); the
    // outcome crosses back to context's thread. The thread ends after the one answer, which the
    // timeout bounds.
    auto *thread = new QThread;
    thread->setObjectName(QStringLiteral("assistantTryModel"));
    QPointer<QObject> target(context);
    QObject::connect(thread, &QThread::started, [thread, config, request, target, done] {
        auto *client = new LanguageModelClient(config);
        client->phrase(request, [client, thread, target, done](const Phrasing &p) {
            AssistantPage::TestOutcome o;
            o.kind = p.outcome == Phrasing::Phrased    ? AssistantPage::TestOutcome::Answered
                     : p.outcome == Phrasing::Declined ? AssistantPage::TestOutcome::Declined
                                                       : AssistantPage::TestOutcome::Failed;
            o.text = p.text.left(2000);
            o.error = p.error.left(300);
            o.latencyMs = p.latencyMs;
            if (target)
                QMetaObject::invokeMethod(
                    target.data(), [done, o] { done(o); }, Qt::QueuedConnection);
            client->deleteLater();
            thread->quit();
        });
    });
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void addAssistantPage(MainWindow &window, AppSettings &settings, SecretStore &secrets)
{
    window.addSettingsPage(
        AssistantPage::tr("Assistant"), AssistantPage::tr("Assista&nt…"), QStringLiteral("assistantPage"),
        [&settings, &secrets](QWidget *parent) {
            auto *page = new AssistantPage(parent);
            page->setValues(AssistantSettings::values(settings, secrets));
            page->setCheckFunction(&AssistantSettings::check);
            const QString ini = settings.iniPath();
            page->setSaveFunction([ini, &secrets](const AssistantPage::Values &values, QString *error) {
                return AssistantSettings::save(values, ini, secrets, error);
            });
            page->setTestFunction([page](const AssistantPage::Values &values,
                                         const AssistantPage::TestQuestion &question, AssistantPage::TestDone done) {
                AssistantSettings::tryModel(values, question, page, std::move(done));
            });
            return page;
        });
}
