#include "model/core/textfold.h"

QString TextFold::fold(const QString &text)
{
    QString s = text;
    s.replace(QChar(0x0130), QLatin1Char('i')).replace(QChar(0x0131), QLatin1Char('i'));
    s = s.normalized(QString::NormalizationForm_KD);
    QString out;
    out.reserve(s.size());
    for (QChar c : s) {
        const auto cat = c.category();
        if (cat == QChar::Mark_NonSpacing || cat == QChar::Mark_SpacingCombining || cat == QChar::Mark_Enclosing)
            continue;
        out.append(c.toLower());
    }
    return out;
}

QStringList TextFold::words(const QString &text)
{
    QStringList out;
    QString current;
    for (QChar c : text) {
        if (c.isLetterOrNumber()) {
            current.append(c);
        } else if (!current.isEmpty()) {
            out.append(current);
            current.clear();
        }
    }
    if (!current.isEmpty())
        out.append(current);
    return out;
}
