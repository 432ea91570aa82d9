#pragma once

// Helpers for the UI tests of what a window looks like in a language: the translations the liaison
// target compiles (Turkish, German), and the controls a layout cut (a button narrower than its text, a field
// pushed past its pane's edge).

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QStringList>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStyleOptionFrame>
#include <QTranslator>
#include <QWidget>

namespace UiTest {

// The liaison_<language>.qm that the liaison target compiles (as ui_translations finds it); empty
// when it is not built.
inline QString translationQm(const QString &language)
{
    const QString name = QStringLiteral("/../app/liaison_%1.qm").arg(language);
    QStringList candidates{QDir::cleanPath(QCoreApplication::applicationDirPath() + name)};
    const QString binary = qEnvironmentVariable("LIAISON_BINARY");
    if (!binary.isEmpty())
        candidates << QDir::cleanPath(QFileInfo(binary).absolutePath() + name);
    for (const QString &c : std::as_const(candidates)) {
        if (QFileInfo::exists(c))
            return c;
    }
    return {};
}

inline QString turkishQm()
{
    return translationQm(QStringLiteral("tr"));
}

// A translation ("tr", "de"; empty: none, the English source) installed for the life of a scope, so
// that a test builds its widgets in that language; removed again when the scope ends, whatever the
// test's outcome. A test checks ok() with QVERIFY2 and the message it offers.
class ScopedTranslation
{
public:
    explicit ScopedTranslation(const QString &language)
    {
        if (language.isEmpty())
            return;
        const QString qm = translationQm(language);
        m_installed = !qm.isEmpty() && m_translator.load(qm) && QCoreApplication::installTranslator(&m_translator);
        m_wanted = true;
    }
    ~ScopedTranslation()
    {
        if (m_installed)
            QCoreApplication::removeTranslator(&m_translator);
    }
    ScopedTranslation(const ScopedTranslation &) = delete;
    ScopedTranslation &operator=(const ScopedTranslation &) = delete;

    // True when installed as asked, or when not asked for.
    bool ok() const { return m_installed || !m_wanted; }
    static constexpr const char *missing = "liaison_<language>.qm not found: build the liaison target first";

private:
    QTranslator m_translator;
    bool m_installed = false;
    bool m_wanted = false;
};

// The Turkish translation for the life of a scope (when `install` is true).
class ScopedTurkish : public ScopedTranslation
{
public:
    explicit ScopedTurkish(bool install = true)
        : ScopedTranslation(install ? QStringLiteral("tr") : QString())
    {
    }
    static constexpr const char *missing = "liaison_tr.qm not found: build the liaison target first";
};

namespace Detail {
inline QString describe(const QWidget *w)
{
    QString text;
    if (const auto *b = qobject_cast<const QAbstractButton *>(w))
        text = b->text();
    else if (const auto *c = qobject_cast<const QComboBox *>(w))
        text = c->currentText();
    else if (const auto *l = qobject_cast<const QLabel *>(w))
        text = l->text();
    else if (const auto *e = qobject_cast<const QLineEdit *>(w))
        text = e->placeholderText();
    return QStringLiteral("%1 '%2' \"%3\"")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), text.simplified());
}

// Where `w` reaches past the edge of a widget it sits in (up to `root`, or to the viewport of a
// scroll area, whose content is scrolled to); empty when it is inside them all.
inline QString pastAnEdge(const QWidget *w, const QWidget *root)
{
    const QWidget *child = w;
    QRect r = w->rect();
    for (int depth = 0; depth < 64 && child != root; ++depth) {
        const QWidget *parent = child->parentWidget();
        if (!parent || child->isWindow())
            break;
        r.translate(child->pos());
        if (!parent->rect().contains(r))
            return QStringLiteral("reaches past the edge of %1 '%2' (%3,%4 %5×%6 in %7×%8)")
                .arg(QString::fromLatin1(parent->metaObject()->className()), parent->objectName())
                .arg(r.x())
                .arg(r.y())
                .arg(r.width())
                .arg(r.height())
                .arg(parent->width())
                .arg(parent->height());
        if (const auto *area = qobject_cast<const QAbstractScrollArea *>(parent->parentWidget());
            area && area->viewport() == parent)
            break;
        child = parent;
    }
    return {};
}
} // namespace Detail

// Every control showing under `root` that is cut: a push, tool, check or radio button narrower than
// its size hint (its text or icon does not fit), a combo box too narrow for its current text, a
// line edit narrower than its minimum, a one-line label narrower than its text, and any of them
// reaching past the edge of a widget it sits in (so that a neighbour covers it). One line for each,
// saying what and by how much; empty when every control is whole.
inline QStringList clippedControls(const QWidget *root)
{
    QStringList found;
    for (const QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisible() || w->width() <= 0)
            continue;
        // Qt's own parts of a scroll bar, a tab bar or a combo box are not our controls.
        if (w->objectName().startsWith(QLatin1String("qt_")))
            continue;
        int needs = 0;
        if (const auto *b = qobject_cast<const QAbstractButton *>(w)) {
            if (b->parentWidget() &&
                (b->parentWidget()->inherits("QTabBar") || b->parentWidget()->inherits("QScrollBar")))
                continue;
            needs = b->sizeHint().width();
        } else if (const auto *c = qobject_cast<const QComboBox *>(w)) {
            if (c->isEditable())
                needs = c->minimumSizeHint().width();
            else {
                // The current text is drawn in the style's edit field (a pixel in from each side),
                // cut where it ends.
                QStyleOptionComboBox opt;
                opt.initFrom(c);
                opt.editable = false;
                opt.currentText = c->currentText();
                opt.currentIcon = c->itemIcon(c->currentIndex());
                const int icon = opt.currentIcon.isNull() ? 0 : c->iconSize().width() + 4;
                const int field =
                    c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c).width();
                needs = c->width() - field + c->fontMetrics().horizontalAdvance(c->currentText()) + icon + 2;
            }
        } else if (const auto *e = qobject_cast<const QLineEdit *>(w)) {
            if (e->parentWidget() && e->parentWidget()->inherits("QAbstractSpinBox"))
                continue;
            needs = e->minimumSizeHint().width();
            if (e->text().isEmpty() && !e->placeholderText().isEmpty()) {
                // An empty field's hint shows whole (Qt ends a cut one in "…").
                QStyleOptionFrame opt;
                opt.initFrom(e);
                opt.lineWidth = e->hasFrame() ? e->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &opt, e) : 0;
                const int contents = e->style()->subElementRect(QStyle::SE_LineEditContents, &opt, e).width();
                const QMargins m = e->textMargins();
                needs = qMax(needs, e->width() - contents + m.left() + m.right() + 4 +
                                        e->fontMetrics().horizontalAdvance(e->placeholderText()));
            }
        } else if (const auto *list = qobject_cast<const QListView *>(w)) {
            // A list of names or lines (not a board of cards) that has to be scrolled sideways to be
            // read is cut.
            if (list->flow() == QListView::TopToBottom && list->horizontalScrollBar()->isVisible())
                found << QStringLiteral("%1 scrolls sideways: its rows are cut").arg(Detail::describe(w));
            continue;
        } else if (const auto *l = qobject_cast<const QLabel *>(w)) {
            // An ElidedLabel shows what does not fit as "…", whole on hovering.
            if (l->inherits("ElidedLabel") || l->wordWrap() || l->text().isEmpty() || l->textFormat() == Qt::RichText ||
                (l->textFormat() == Qt::AutoText && Qt::mightBeRichText(l->text())) || l->text().contains('\n'))
                continue;
            const int margins = l->contentsMargins().left() + l->contentsMargins().right() + 2 * l->margin();
            // A label with a buddy draws its mnemonic's '&' as an underline, not as a character.
            QString shown = l->text();
            if (l->buddy())
                shown.replace(QLatin1String("&&"), QStringLiteral("\x01"))
                    .remove(QLatin1Char('&'))
                    .replace(QChar(1), QLatin1Char('&'));
            needs = l->fontMetrics().horizontalAdvance(shown) + margins;
        } else {
            continue;
        }
        if (w->width() < needs)
            found
                << QStringLiteral("%1 is %2 pixels wide, needs %3").arg(Detail::describe(w)).arg(w->width()).arg(needs);
        const QString edge = Detail::pastAnEdge(w, root);
        if (!edge.isEmpty())
            found << QStringLiteral("%1 %2").arg(Detail::describe(w), edge);
    }
    return found;
}

} // namespace UiTest
