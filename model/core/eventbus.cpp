#include "model/core/eventbus.h"

#include <QMetaEnum>

namespace {

// "IncomingWebhook" → "incoming_webhook"
QString snake(const char *key)
{
    QString out;
    for (const char *p = key; p && *p; ++p) {
        const QChar c = QLatin1Char(*p);
        if (c.isUpper() && p != key)
            out += QLatin1Char('_');
        out += c.toLower();
    }
    return out;
}

} // namespace

QString EventBus::name(Entity entity)
{
    return snake(QMetaEnum::fromType<Entity>().valueToKey(int(entity)));
}

QString EventBus::name(Change change)
{
    return snake(QMetaEnum::fromType<Change>().valueToKey(int(change)));
}
