/* Tuning harness, not part of the library: where variant 23's time goes at
 * mid sizes. Cold L2 (a 256 MB memset before each run), medians of 40 runs
 * after 5 warm-ups, BF16, C = A B with dense row-major operands (all zero:
 * only times are compared here; wgmma_stages.cu compares results):
 *   - an empty kernel (the floor of this timing);
 *   - cuBLAS BF16 and variant 23's 128 x 64 and 128 x 128 tiles (w64, w128);
 *     at the commit that added this file, also each on a pair of CTAs that
 *     split k in a cluster of 2 and added the halves through distributed
 *     shared memory (w64p, w128p: small_04_wgmma_tiles.cu had them there,
 *     as run's kCS = 2, and not after);
 *   - variant 23's split-K partials (one launch, without split_k.cu's sum).
 * Build: nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a \
 *          -o wgmma_fixed gemm/tuning/wgmma_fixed.cu -lcublas -lcuda
 * tiles-h100/wgmma_fixed.txt holds its output for five builds of the
 * kernel file (its header says which). */
#include "../kernels/small_04_wgmma_tiles.cu"
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <stdio.h>
#include <vector>
#include <algorithm>
static float med(std::vector<float> v){ std::sort(v.begin(),v.end()); return v[v.size()/2]; }
__global__ void empty_k(int *p){ extern __shared__ int s[]; if(threadIdx.x==1000000) p[0]=s[0]; }
int main(){
  size_t maxe=(size_t)4096*4096;
  __nv_bfloat16 *a,*b,*c,*c2; char* flush;
  cudaMalloc(&a,maxe*2); cudaMalloc(&b,maxe*2); cudaMalloc(&c,maxe*2); cudaMalloc(&c2,maxe*2); cudaMalloc(&flush,256<<20);
  cudaMemset(a,0,maxe*2); cudaMemset(b,0,maxe*2);
  cublasHandle_t hd; cublasCreate(&hd);
  cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaFuncSetAttribute(empty_k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000);
  auto timeit=[&](auto f, bool cold){ std::vector<float> t; for(int r=0;r<45;r++){ if(cold) cudaMemsetAsync(flush,r,256<<20); else cudaMemsetAsync(flush,r,1<<20); cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms,e0,e1); if(r>=5) t.push_back(ms*1000);} return med(t);};
  for(int cold=1; cold>=1; cold--){
    printf("%s L2\n", cold?"cold":"warm");
    printf("empty 384 thr 0 smem  %.2f\n", timeit([&](){ empty_k<<<128,384,0>>>(nullptr);}, cold));
    printf("empty 384 thr 197KB   %.2f\n", timeit([&](){ empty_k<<<128,384,197000>>>(nullptr);}, cold));
    printf("empty 128 thr 0 smem  %.2f\n", timeit([&](){ empty_k<<<128,128,0>>>(nullptr);}, cold));
    const int shapes[][3]={{1024,1024,64},{1024,1024,128},{1024,1024,256},{1024,1024,512},{1024,1024,1024},{1024,1024,2048},{256,256,256},{512,512,512},{768,768,768},{1536,1536,1536},{2048,2048,2048},{512,512,2048},{384,384,4096},{1024,256,1024},{256,4096,1024}};
    for(auto&s:shapes){ int m=s[0],n=s[1],k=s[2]; float one=1,zero=0;
      float tc=timeit([&](){ cublasGemmEx(hd,CUBLAS_OP_N,CUBLAS_OP_N,n,m,k,&one,b,CUDA_R_16BF,n,a,CUDA_R_16BF,k,&zero,c2,CUDA_R_16BF,n,CUBLAS_COMPUTE_32F,CUBLAS_GEMM_DEFAULT);}, cold);
      auto go=[&](int w){ Params prm; memset(&prm,0,sizeof(prm)); prm.lda=k; prm.ldb=n; prm.ldc=n; prm.c=c; prm.m=m; prm.n=n; prm.k=k;
        prm.tiles_m=(m+127)/128; prm.alpha=1; prm.beta=0; prm.c_vec=true; prm.tiles_n=(n+w-1)/w; size_t u=(size_t)prm.tiles_m*prm.tiles_n;
        if(w==64) run<64,false,false,false,false>(prm,a,b,1,u,0); else run<128,false,false,false,false>(prm,a,b,1,u,0);};
      float t64=timeit([&](){go(64);}, cold), t128=timeit([&](){go(128);}, cold);
      printf("%dx%dx%d cublas %.2f w64 %.2f w128 %.2f\n",m,n,k,tc,t64,t128);
    }
  }
  { // split-K partials of 23 at 256x256x65536 and 512x512x16384, cold L2 (partials only; the sum is another launch)
    float *part; cudaMalloc(&part,(size_t)64*512*512*4);
    const int sh[][3]={{256,256,65536},{512,512,16384},{256,256,16384},{1024,1024,1024},{1024,1024,2048}};
    for(auto&s:sh){ int m=s[0],n=s[1],k=s[2]; float one=1,zero=0;
      __nv_bfloat16 *A=a,*B=b; // zeros; sizes fit in 16M elements
      float tc=timeit([&](){ cublasGemmEx(hd,CUBLAS_OP_N,CUBLAS_OP_N,n,m,k,&one,B,CUDA_R_16BF,n,A,CUDA_R_16BF,k,&zero,c2,CUDA_R_16BF,n,CUBLAS_COMPUTE_32F,CUBLAS_GEMM_DEFAULT);}, true);
      printf("%dx%dx%d cublas %.2f |",m,n,k,tc);
      for(int S: {2,4,8,16,32,64}){ size_t kc=((k+S-1)/S+63)/64*64; size_t sp=(k+kc-1)/kc; if((size_t)m*n*sp>(size_t)64*512*512) continue;
        float t=timeit([&](){ gk_gemm_small_04_wgmma_tiles_run_split(1,0,0,m,n,k,kc,sp,A,k,B,n,part,0);}, true);
        printf(" S%zu %.2f",sp,t); }
      printf("\n");
    }
  }
  printf("%s\n",cudaGetErrorString(cudaGetLastError()));
}
