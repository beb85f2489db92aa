/* fsim_wire.c - the functional simulator's stream buffers: the one message
 * format (fsim.h states it) that carries a layer's weights down the SwarmX
 * tree and its gradient sums up, dense or sparse-encoded, and the value by
 * value sum a tree node makes of its children's messages. */
#include <assert.h>
#include <string.h>

#include "../base/xalloc.h"
#include "fsimint.h"

#define HDR_BYTES 12 /* kind, nw, nb */

/* b holds n bytes, its allocation grown if need be. */
static void buf_resize(struct buf *b, size_t n)
{
    if (n > b->cap) {
        b->p = xrealloc(b->p, n);
        b->cap = n;
    }
    b->len = n;
}

void fsim_buf_copy(struct buf *dst, const struct buf *src)
{
    buf_resize(dst, src->len);
    memcpy(dst->p, src->p, src->len);
}

/* Values in host byte order at byte offset off (memcpy: no alignment is
 * assumed). */
static uint32_t get_u32(const struct buf *b, size_t off)
{
    uint32_t v;
    memcpy(&v, b->p + off, sizeof v);
    return v;
}

static void put_u32(struct buf *b, size_t off, uint32_t v)
{
    memcpy(b->p + off, &v, sizeof v);
}

static uint16_t get_u16(const struct buf *b, size_t off)
{
    uint16_t v;
    memcpy(&v, b->p + off, sizeof v);
    return v;
}

static void put_u16(struct buf *b, size_t off, uint16_t v)
{
    memcpy(b->p + off, &v, sizeof v);
}

static float get_f32(const struct buf *b, size_t off)
{
    float v;
    memcpy(&v, b->p + off, sizeof v);
    return v;
}

static void put_f32(struct buf *b, size_t off, float v)
{
    memcpy(b->p + off, &v, sizeof v);
}

/* Byte offset of the first value: after the header and, if sparse, the
 * positions padded to 4 bytes. */
static size_t val_offset(uint32_t kind, uint32_t nw)
{
    return HDR_BYTES + (kind ? ((size_t)nw * 2 + 3) / 4 * 4 : 0);
}

/* The header's nw. */
uint32_t fsim_msg_values(const struct buf *b)
{
    return get_u32(b, 4);
}

/* Encode layer l into out: w is dense (n_w(l) floats); pos == NULL sends all
 * of w, else only w at the npos positions pos.  b has n_out(l) floats. */
void fsim_encode(struct buf *out, int l, const uint16_t *pos, size_t npos, const float *w,
                 const float *b)
{
    uint32_t kind = pos != NULL, nw = (uint32_t)(pos ? npos : n_w(l)), nb = (uint32_t)n_out(l);
    size_t v = val_offset(kind, nw);
    buf_resize(out, v + 4 * ((size_t)nw + nb));
    memset(out->p, 0, v);
    put_u32(out, 0, kind);
    put_u32(out, 4, nw);
    put_u32(out, 8, nb);
    for (size_t j = 0; j < nw; j++) {
        if (pos)
            put_u16(out, HDR_BYTES + 2 * j, pos[j]);
        put_f32(out, v + 4 * j, w[pos ? pos[j] : j]);
    }
    for (size_t o = 0; o < nb; o++)
        put_f32(out, v + 4 * (nw + o), b[o]);
}

/* Decode a layer-l message into dense w (zeros off the positions) and b.
 * Sparse positions go to pos (room for n_w(l)); *npos gets the number of
 * weight values.  Returns 1 if the message was sparse. */
int fsim_decode(const struct buf *in, int l, float *w, float *b, uint16_t *pos, size_t *npos)
{
    uint32_t kind = get_u32(in, 0), nw = get_u32(in, 4), nb = get_u32(in, 8);
    size_t v = val_offset(kind, nw);
    assert(nb == n_out(l) && (kind ? nw <= n_w(l) : nw == n_w(l)));
    assert(in->len == v + 4 * ((size_t)nw + nb));
    if (kind)
        memset(w, 0, n_w(l) * sizeof *w);
    for (size_t j = 0; j < nw; j++) {
        size_t i = kind ? get_u16(in, HDR_BYTES + 2 * j) : j;
        assert(i < n_w(l));
        if (kind)
            pos[j] = (uint16_t)i;
        w[i] = get_f32(in, v + 4 * j);
    }
    for (size_t o = 0; o < nb; o++)
        b[o] = get_f32(in, v + 4 * (nw + o));
    *npos = nw;
    return (int)kind;
}

/* acc += src, value by value; the headers and positions must agree. */
void fsim_add_values(struct buf *acc, const struct buf *src)
{
    uint32_t kind = get_u32(acc, 0), nw = get_u32(acc, 4), nb = get_u32(acc, 8);
    size_t v = val_offset(kind, nw);
    assert(src->len == acc->len && memcmp(src->p, acc->p, v) == 0);
    for (size_t j = 0; j < (size_t)nw + nb; j++)
        put_f32(acc, v + 4 * j, get_f32(acc, v + 4 * j) + get_f32(src, v + 4 * j));
}
