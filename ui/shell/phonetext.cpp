#include "ui/shell/phonetext.h"

#include <phonenumbers/phonenumberutil.h>

QString PhoneText::display(const QString &stored)
{
    const QString trimmed = stored.trimmed();
    if (!trimmed.startsWith(QLatin1Char('+')))
        return stored;
    using i18n::phonenumbers::PhoneNumber;
    using i18n::phonenumbers::PhoneNumberUtil;
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance(); // thread-safe, made once
    PhoneNumber number;
    if (util->Parse(trimmed.toStdString(), "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR ||
        !util->IsPossibleNumber(number))
        return stored;
    std::string out;
    util->Format(number, PhoneNumberUtil::INTERNATIONAL, &out);
    return QString::fromStdString(out);
}
