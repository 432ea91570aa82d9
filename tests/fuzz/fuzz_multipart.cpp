// Fuzz target: the multipart/form-data parser (server/api/multipart.cpp). The input's first line (up
// to the first LF, CR dropped, at most 256 bytes) is the request's Content-Type, the rest is the body,
// so that the fuzzer varies the boundary parameter as well as the body:
//
//     multipart/form-data; boundary=XyZ
//     --XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue\r\n--XyZ--\r\n
//
// The body is parsed with the default limits and with small ones (so that short inputs reach the part,
// header and header-count limits). Checked besides crashes and sanitizer reports: a refusal has a
// message; an accepted form has named parts whose bodies lie inside the input; and it round-trips:
// Multipart::serialize of its parts, parsed again with the same boundary, gives the same parts.
#include "tests/fuzz/fuzzsupport.h"

#include "server/api/multipart.h"

#include <QByteArrayView>

namespace {
constexpr qsizetype kMaxContentTypeLine = 256;

void check(bool ok, const char *what)
{
    if (!ok)
        FuzzSupport::fail(what);
}

void checkForm(const MultipartForm &form, QByteArrayView body, QByteArrayView boundary, bool roundTrip)
{
    if (!form.isValid()) {
        check(!form.errorString().isEmpty(), "a refused body without an error message");
        return;
    }
    QList<MultipartField> fields;
    for (const MultipartPart &p : form.parts()) {
        check(!p.name.isEmpty(), "an accepted part without a name");
        check(p.body.isEmpty() || (p.body.data() >= body.data() && p.body.data() + p.body.size() <= body.end()),
              "a part body outside the input");
        check(form.part(p.name) != nullptr && form.count(p.name) >= 1, "part() or count() misses a part");
        (void)p.mimeType();
        (void)p.header("Content-Type");
        MultipartField f;
        f.name = p.name;
        f.body = p.body.toByteArray();
        f.isFile = p.hasFilename;
        f.filename = p.filename;
        f.contentType = p.contentType;
        fields.append(f);
    }
    if (!roundTrip)
        return;
    const QByteArray again = Multipart::serialize(fields, boundary.toByteArray());
    const MultipartForm reparsed = MultipartForm::parseWithBoundary(boundary, again);
    check(reparsed.isValid(), "the serialised parts of an accepted form are refused");
    check(reparsed.parts().size() == form.parts().size(), "the round trip changes the number of parts");
    for (qsizetype i = 0; i < form.parts().size(); ++i) {
        const MultipartPart &a = form.parts().at(i);
        const MultipartPart &b = reparsed.parts().at(i);
        check(a.name == b.name, "the round trip changes a part name");
        check(a.hasFilename == b.hasFilename && a.filename == b.filename, "the round trip changes a filename");
        check(a.contentType == b.contentType, "the round trip changes a Content-Type");
        check(a.body == b.body, "the round trip changes a part body");
    }
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv)
{
    FuzzSupport::initApplication(*argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // The body is a view of the input itself, which libFuzzer allocates at its exact size: a read
    // past its end is an ASan report.
    const QByteArrayView input(reinterpret_cast<const char *>(data), qsizetype(size));
    qsizetype eol = input.first(qMin(input.size(), kMaxContentTypeLine)).indexOf('\n');
    if (eol < 0)
        eol = qMin(input.size(), kMaxContentTypeLine) - 1;
    QByteArrayView contentType = input.first(eol + 1);
    const QByteArrayView body = input.sliced(eol + 1);
    if (contentType.endsWith('\n'))
        contentType.chop(1);
    if (contentType.endsWith('\r'))
        contentType.chop(1);

    (void)MultipartForm::isMultipart(contentType);
    QString error;
    const QByteArray boundary = MultipartForm::boundaryOf(contentType, &error);
    check(!boundary.isEmpty() || !error.isEmpty(), "no boundary and no error");

    const MultipartForm form = MultipartForm::parse(contentType, body);
    checkForm(form, body, boundary, true);

    MultipartLimits small;
    small.maxParts = 3;
    small.maxHeaderBytes = 96;
    small.maxHeadersPerPart = 2;
    const MultipartForm limited = MultipartForm::parse(contentType, body, small);
    checkForm(limited, body, boundary, false);
    if (limited.isValid())
        check(form.isValid() && limited.parts().size() == form.parts().size(),
              "the small limits accept what the default ones refuse");
    return 0;
}
