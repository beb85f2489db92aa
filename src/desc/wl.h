/* wl.h - workload descriptions: a transformer and how it is trained, loaded
 * from an INI file in models/ (format: cerebras-plan(5)).
 *
 * Shapes are counts; precisions are bytes per value; tokens is a count or the
 * word "chinchilla" (tokens_chinchilla set), meaning
 * WL_CHINCHILLA_TOKENS_PER_PARAM tokens per parameter. */
#ifndef CP_WL_H
#define CP_WL_H

#include "desc.h"
#include "loss.h"

/* Compute-optimal training tokens per parameter: Hoffmann et al. 2022
 * ("Training Compute-Optimal Large Language Models"), about 20. */
#define WL_CHINCHILLA_TOKENS_PER_PARAM 20.0

enum wl_norm { WL_LAYERNORM, WL_RMSNORM };
enum wl_pos { WL_POS_LEARNED, WL_POS_ROTARY };

struct wl_desc {
    char name[DESC_TEXT_MAX];
    double layers, hidden, heads, kv_heads, ffn, seq_len, vocab;
    double predictions; /* positions per sequence the logits run on (<= seq_len) */
    double tokens;      /* training tokens (ignored if tokens_chinchilla) */
    int tokens_chinchilla;
    double batch;           /* global batch, sequences                       */
    int gated_ffn;          /* SwiGLU-style: three FFN matrices              */
    int bias;               /* linear layers carry biases                    */
    int tied_embeddings;    /* logits reuse the token embedding matrix       */
    int norm;               /* enum wl_norm                                  */
    int positions;          /* enum wl_pos                                   */
    int dropout;            /* hidden dropout after the attention projection
                               and the FFN (their masks are kept)            */
    int attention_dropout;  /* dropout on the attention probabilities (its
                               mask and output are kept); default: dropout */
    int recompute;          /* enum wl_recompute: activation recompute in the
                               backward pass                                 */
    double weight_bytes;    /* bytes per weight as streamed to the wafer     */
    double grad_bytes;      /* bytes per gradient as streamed out            */
    double master_bytes;    /* bytes per master copy of a weight (MemoryX)   */
    double optimizer_bytes; /* bytes of optimizer state per parameter        */
    double act_bytes;       /* bytes per stored activation value             */
    /* How the software runs the job on GPUs (the GPU model only; the
     * weight-streaming model ignores them).  Each is on or off. */
    int sequence_parallel;     /* norms and dropout split over tensor ranks  */
    int flash_attention;       /* attention scores never stored              */
    int tp_overlap;            /* tensor-parallel traffic under the matmuls  */
    int distributed_optimizer; /* optimizer state sharded over data ranks    */
    int fp8_params;            /* weights kept in 8 bits when matmuls are FP8 */
    int optimizer_precision;   /* enum wl_optprec: the optimizer state's type */
    /* Sparse pretraining at equal quality (loss.h): the law's constants,
     * loss_fit's published set where the file gives no loss_ key. */
    int loss_fit;   /* enum loss_fit                                   */
    int loss_given; /* some of loss's keys come from the file or --set */
    struct loss_spec loss;
};

/* The optimizer state's type: fp32 (master weights 4 B, Adam's two
 * moments 8 B per parameter) or bf16 (2 B and 4 B).  Setting it sets
 * master_bytes and optimizer_bytes unless the file gives them. */
enum wl_optprec { WL_OPT_FP32, WL_OPT_BF16 };

/* Activation recompute (Korthikanti et al. 2022): none; full (every
 * block's forward pass again, only its input kept); selective (the
 * attention scores and what follows them, the a s^2 terms, recomputed).
 * The file's true and false read as full and none. */
enum wl_recompute { WL_RC_NONE, WL_RC_FULL, WL_RC_SELECTIVE };

extern const struct desc_schema wl_schema;

/* The workload's loss law for output: "chinchilla: the Chinchilla law
 * on the non-zero weights, ...", or with " and the model's loss_ keys" when
 * some were given.  Returns buf. */
const char *wl_loss_source(const struct wl_desc *w, char *buf, size_t n);

/* Parse a workload from text named origin, apply the nsets overrides, fill
 * derived defaults (ffn = 4 x hidden, kv_heads = heads) and check cross-key
 * constraints (heads divide hidden, kv_heads divide heads).  Returns CP_OK or
 * CP_EINPUT with err filled. */
cp_status wl_load(const char *text, const char *origin, const char *const *sets, size_t nsets,
                  struct wl_desc *wl, struct desc_src *src, struct cp_error *err);

#endif
